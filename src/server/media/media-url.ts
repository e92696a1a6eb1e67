import { API_PATHS } from '../../shared/routes.ts';

/** The URL a client fetches a stored object at. */
export const mediaUrl = (key: string): string => `${API_PATHS.mediaPrefix}/${key}`;
