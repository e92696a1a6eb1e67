import { CLIENT_ID_HEADER } from '../../shared/constants.ts';
import { errorResponseSchema } from '../../shared/errors.ts';
import { getStoredUsername } from './username.ts';

/** Headers every call carries. */
export function baseHeaders(): Record<string, string> {
  const username = getStoredUsername();
  return username ? { [CLIENT_ID_HEADER]: encodeURIComponent(username).slice(0, 64) } : {};
}

/** An answer of the API that was not a success; `message` is the server's `error` text. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  token?: string | null;
  signal?: AbortSignal;
}

/** Parses an answer as JSON, turning an error answer into an ApiError with its message. */
export async function readResponse(response: Response): Promise<unknown> {
  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = undefined;
    }
  }
  if (!response.ok) {
    const parsed = errorResponseSchema.safeParse(body);
    throw new ApiError(
      parsed.success ? parsed.data.error : `Request failed (${response.status})`,
      response.status,
      parsed.success ? parsed.data.code : undefined,
    );
  }
  return body;
}

/** The one place the client calls `fetch` for JSON; same origin, so paths are relative. */
export async function apiRequest(path: string, request: ApiRequest = {}): Promise<unknown> {
  const headers: Record<string, string> = { ...baseHeaders(), accept: 'application/json' };
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method: request.method ?? 'GET',
      headers,
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      credentials: 'same-origin',
      signal: request.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('Network error: check your connection and try again.', 0);
  }
  return readResponse(response);
}

/** The message to show for a failed call. */
export const errorMessage = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.message ? error.message : fallback;

/** POSTs a multipart form (files and fields) and reads the JSON answer like `apiRequest`. */
export async function postForm(
  path: string,
  form: FormData,
  signal?: AbortSignal,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { ...baseHeaders(), accept: 'application/json' },
      body: form,
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('Network error: check your connection and try again.', 0);
  }
  return readResponse(response);
}
