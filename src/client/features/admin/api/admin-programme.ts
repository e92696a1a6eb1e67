import { type QueryClient, useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type RoomCreate,
  type RoomUpdate,
  type SessionCreate,
  type SessionUpdate,
  roomSchema,
  sessionSchema,
} from '../../../../shared/schemas/programme.ts';
import { scheduleImportResultSchema } from '../../../../shared/schemas/schedule-import.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { refreshScheduleFrom } from '../../programme/api/get-schedule.ts';
import { SPEAKERS_KEY } from '../../speakers/api/get-speakers.ts';

/** After a change here: the programme is read again at once (the socket says so to the rest). */
const refresh = (
  _data: unknown,
  _variables: unknown,
  _result: unknown,
  { client }: { client: QueryClient },
) => refreshScheduleFrom(client);

/** POST /api/admin/rooms. */
export const useCreateRoom = (token: string) =>
  useMutation({
    mutationFn: (room: RoomCreate) =>
      apiCall(roomSchema, API_PATHS.adminRooms, { method: 'POST', json: room, token }),
    onSuccess: refresh,
  });

/** PATCH /api/admin/rooms/:id: a new name or position. */
export const useUpdateRoom = (token: string) =>
  useMutation({
    mutationFn: ({ id, update }: { id: string; update: RoomUpdate }) =>
      apiCall(roomSchema, API_PATHS.adminRoom(id), { method: 'PATCH', json: update, token }),
    onSuccess: refresh,
  });

/** DELETE /api/admin/rooms/:id (refused with a 409 while sessions are in it). */
export const useDeleteRoom = (token: string) =>
  useMutation({
    mutationFn: (id: string) =>
      apiCall(roomSchema, API_PATHS.adminRoom(id), { method: 'DELETE', token }),
    onSuccess: refresh,
  });

/** POST /api/admin/sessions, or PATCH /api/admin/sessions/:id with `id`. */
export const useSaveSession = (token: string) =>
  useMutation({
    mutationFn: ({
      id,
      session,
    }: {
      id?: string | undefined;
      session: SessionCreate & SessionUpdate;
    }) =>
      id
        ? apiCall(sessionSchema, API_PATHS.adminSession(id), {
            method: 'PATCH',
            json: session,
            token,
          })
        : apiCall(sessionSchema, API_PATHS.adminSessions, { method: 'POST', json: session, token }),
    onSuccess: refresh,
  });

/** DELETE /api/admin/sessions/:id (its questions stay, in no session). */
export const useDeleteSession = (token: string) =>
  useMutation({
    mutationFn: (id: string) =>
      apiCall(sessionSchema, API_PATHS.adminSession(id), { method: 'DELETE', token }),
    onSuccess: refresh,
  });

/** What to import: a schedule.xml or schedule.json file, or the address to fetch one from. */
export type ScheduleSource = { file: File } | { url: string };

/** A file's media type for the import: by its name, else by its first character. */
async function scheduleType(file: File): Promise<string> {
  const name = file.name.toLowerCase();
  if (name.endsWith('.xml')) return 'application/xml';
  if (name.endsWith('.json')) return 'application/json';
  const start = (await file.slice(0, 256).text()).trimStart();
  return start.startsWith('<') ? 'application/xml' : 'application/json';
}

/**
 * POST /api/admin/schedule: a file as it is, or JSON `{ url }`. New speakers join the speakers
 * lists and the programme is read again.
 */
export const useImportSchedule = (token: string) =>
  useMutation({
    mutationFn: async (source: ScheduleSource) =>
      'url' in source
        ? apiCall(scheduleImportResultSchema, API_PATHS.adminScheduleImport, {
            method: 'POST',
            json: { url: source.url },
            token,
          })
        : apiCall(scheduleImportResultSchema, API_PATHS.adminScheduleImport, {
            method: 'POST',
            raw: { body: source.file, type: await scheduleType(source.file) },
            token,
          }),
    onSuccess: (_result, _source, _context, { client }) => {
      refreshScheduleFrom(client);
      void client.invalidateQueries({ queryKey: SPEAKERS_KEY });
    },
  });
