import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type Announcement,
  announcementListSchema,
} from '../../../../shared/schemas/announcement.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { type LiveUpdates, useLiveUpdates } from '../../../lib/live.ts';

export const ANNOUNCEMENTS_KEY = ['announcements'] as const;

/** GET /api/announcements: today's, in the event's time zone, newest first. */
export const fetchAnnouncements = (signal?: AbortSignal): Promise<Announcement[]> =>
  apiCall(announcementListSchema, API_PATHS.announcements, { signal });

export const announcementsQueryOptions = () =>
  queryOptions({
    queryKey: ANNOUNCEMENTS_KEY,
    queryFn: ({ signal }) => fetchAnnouncements(signal),
  });

/** Puts an announcement first in today's list, once. */
export function addAnnouncement(client: QueryClient, announcement: Announcement): void {
  client.setQueryData<Announcement[]>(ANNOUNCEMENTS_KEY, (list = []) =>
    list.some((kept) => kept._id === announcement._id) ? list : [announcement, ...list],
  );
}

/**
 * Today's announcements, kept live: each `announcement` the socket brings goes first in the
 * list (and to `onArrival`, for the banner); every connect reads the list again, so one sent
 * while the socket was away is there too. `room`: the session whose announcements the screen
 * also hears (a projector's, a talk's page).
 */
export function useAnnouncements(
  options: { onArrival?: (announcement: Announcement) => void; room?: LiveUpdates['room'] } = {},
) {
  useLiveUpdates({
    on: {
      announcement: ({ announcement }, client) => {
        addAnnouncement(client, announcement);
        options.onArrival?.(announcement);
      },
    },
    refetchOnConnect: [ANNOUNCEMENTS_KEY],
    room: options.room,
  });
  return useQuery(announcementsQueryOptions());
}
