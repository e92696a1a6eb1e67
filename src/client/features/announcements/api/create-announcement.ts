import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type AnnouncementCreateRequest,
  announcementSchema,
} from '../../../../shared/schemas/announcement.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { addAnnouncement } from './get-announcements.ts';

/** POST /api/admin/announcements (the admin): sent live and by Web Push; listed here at once. */
export const useCreateAnnouncement = (token: string) =>
  useMutation({
    mutationFn: (announcement: AnnouncementCreateRequest) =>
      apiCall(announcementSchema, API_PATHS.adminAnnouncements, {
        method: 'POST',
        json: announcement,
        token,
      }),
    onSuccess: (announcement, _variables, _result, { client }) =>
      addAnnouncement(client, announcement),
  });
