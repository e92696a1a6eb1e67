import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { messageResponseSchema } from '../../../../shared/schemas/common.ts';
import type { ReportRequest } from '../../../../shared/schemas/report.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { useWithAttendeeToken } from '../../../lib/attendee-token.ts';

/** POST /api/memories/:id/report, with the attendee token when there is one (decision 216). */
export const reportMemory = (id: string, report: ReportRequest, token: string | undefined) =>
  apiCall(messageResponseSchema, API_PATHS.memoryReport(id), {
    method: 'POST',
    json: report,
    token: token ?? null,
  });

/** Asks for a memory to come down, with a reason. */
export function useReportMemory() {
  const withToken = useWithAttendeeToken();
  return useMutation({
    mutationFn: ({ id, report }: { id: string; report: ReportRequest }) =>
      withToken((token) => reportMemory(id, report, token)),
  });
}
