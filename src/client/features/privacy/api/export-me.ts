import { API_PATHS } from '../../../../shared/routes.ts';
import { saveApiFile } from '../../../lib/api-client.ts';

const today = () => new Date().toISOString().slice(0, 10);

/** The name the server gives a download (`Content-Disposition`), else `fallback`. */
const nameOf = (fallback: string) => (headers: Headers | undefined) =>
  /filename="([^"]+)"/.exec(headers?.get('content-disposition') ?? '')?.[1] ?? fallback;

/** GET /api/attendees/me/export: everything of the attendee, saved as one JSON file. */
export const saveMyData = (token: string): Promise<void> =>
  saveApiFile(API_PATHS.attendeeExport, token, nameOf(`my-data-${today()}.json`));

/** GET /api/attendees/me/export.zip: the files of the attendee's memories, saved as a ZIP. */
export const saveMyPhotos = (token: string): Promise<void> =>
  saveApiFile(API_PATHS.attendeeExportZip, token, nameOf(`my-memories-${today()}.zip`));
