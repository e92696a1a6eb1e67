import { CLIENT_ID_HEADER } from '../../shared/constants.ts';
import type { ErrorResponse } from '../../shared/errors.ts';
import { clientId } from './client-id.ts';
import { errorText } from './error-text.ts';

/** Headers every call carries: the device's id, so limits follow this person (decision 191). */
export function baseHeaders(): Record<string, string> {
  return { [CLIENT_ID_HEADER]: clientId() };
}

/**
 * A call that failed: the server answered `status` with an error (its `{ error, code }` body
 * when it sent one), or, with status 0, there was no answer at all. `message` always says
 * which, in the person's language (`errorText`); `serverMessage` is the server's own English
 * text, when there is one; `retryAfterSeconds` its `Retry-After`, when it sent one.
 */
export class ApiError extends Error {
  readonly code: ErrorResponse['code'];
  readonly serverMessage: string | undefined;

  constructor(
    readonly status: number,
    body?: ErrorResponse,
    readonly retryAfterSeconds?: number,
  ) {
    super(errorText(status, body));
    this.name = 'ApiError';
    this.code = body?.code;
    this.serverMessage = body?.error;
  }
}

/** `Retry-After` in seconds (it may be a number of seconds or a date), when there is one. */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Answers that mean "not now" rather than "no": the server is busy, down for a moment or
 * limiting the caller (408, 425, 429, 502, 503, 504). What was refused so is worth sending
 * again later, as after a lost connection; any other 4xx is the request's own fault.
 */
const RETRY_LATER = new Set([408, 425, 429, 502, 503, 504]);

/** Whether an answer's status asks to try again later. */
export const isRetryLaterStatus = (status: number): boolean => RETRY_LATER.has(status);

/** Whether `error` is an answer of the server that asks to try again later. */
export const isRetryLater = (error: unknown): error is ApiError =>
  error instanceof ApiError && isRetryLaterStatus(error.status);

/**
 * The text to show for a failed call, the one rule of the spec's error catalogue: the server's
 * own error when it answered with one (in the person's language when the catalog has it),
 * `fallback` otherwise (no answer, or none readable).
 */
export const errorMessage = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.serverMessage ? error.message : fallback;

/** What reads an answer: the shared zod schema of that answer. */
export interface AnswerSchema<T> {
  parse: (data: unknown) => T;
}

/** Reads an answer as JSON: its data when it is a success, else an ApiError with its body. */
export async function readResponse<T>(schema: AnswerSchema<T>, response: Response): Promise<T> {
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
    // The error's schema (zod) loads with the first failure, not with the join page.
    const { errorResponseSchema } = await import('../../shared/errors.ts');
    const parsed = errorResponseSchema.safeParse(body);
    throw new ApiError(
      response.status,
      parsed.success ? parsed.data : undefined,
      parseRetryAfter(response.headers.get('retry-after')),
    );
  }
  return schema.parse(body);
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (files and fields). */
  form?: FormData;
  /** A body sent as it is (a file's bytes), with its media type. */
  raw?: { body: Blob | string; type: string };
  token?: string | null;
  signal?: AbortSignal | undefined;
}

/**
 * Calls the API and answers its data, parsed with `schema`: the one place the client calls
 * `fetch` (same origin, so paths are relative). Any failure is an ApiError; a cancelled call
 * stays an AbortError.
 */
export async function apiCall<T>(
  schema: AnswerSchema<T>,
  path: string,
  request: ApiRequest = {},
): Promise<T> {
  const headers: Record<string, string> = { ...baseHeaders(), accept: 'application/json' };
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  if (request.raw) headers['content-type'] = request.raw.type;
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method: request.method ?? 'GET',
      headers,
      body:
        request.form ??
        request.raw?.body ??
        (request.json === undefined ? undefined : JSON.stringify(request.json)),
      credentials: 'same-origin',
      signal: request.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0);
  }
  return readResponse(schema, response);
}

/** Bytes of a download held as one part before it joins the file (a Blob the browser may keep on disk). */
const DOWNLOAD_PART_BYTES = 8 * 1024 * 1024;

export interface DownloadOptions {
  /** Told the bytes received so far, and the answer's headers (to know what to expect). */
  onProgress?: (received: number, headers: Headers) => void;
  signal?: AbortSignal | undefined;
}

/**
 * Downloads a file the API answers (a CSV export, the archive of every memory) as a Blob, with a
 * token. With `onProgress`, the body is read as it arrives and gathered in parts of a few MB,
 * so a large download is not held twice in the page's memory.
 */
export async function apiDownload(
  path: string,
  token: string,
  { onProgress, signal }: DownloadOptions = {},
): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(path, {
      headers: { ...baseHeaders(), authorization: `Bearer ${token}` },
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0);
  }
  if (!response.ok) return readResponse({ parse: () => new Blob() }, response);
  const type = response.headers.get('content-type') ?? '';
  if (!onProgress || !response.body) return response.blob();
  const reader = response.body.getReader();
  const parts: Blob[] = [];
  let chunks: Uint8Array<ArrayBuffer>[] = [];
  let chunkBytes = 0;
  let received = 0;
  onProgress(0, response.headers);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      chunkBytes += value.byteLength;
      received += value.byteLength;
      if (chunkBytes >= DOWNLOAD_PART_BYTES) {
        parts.push(new Blob(chunks));
        chunks = [];
        chunkBytes = 0;
      }
      onProgress(received, response.headers);
    }
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // The answer was cut off (the network, or the server stopped): not a whole file.
    throw new ApiError(0);
  }
  parts.push(new Blob(chunks));
  return new Blob(parts, { type });
}

/**
 * Downloads a file the API answers with a token and hands it to the browser as `filename` (or
 * the name the answer's `Content-Disposition` gives, when there is one and `filename` is a
 * fallback function); `options` follow the download's progress and can cancel it.
 */
export async function saveApiFile(
  path: string,
  token: string,
  filename: string | ((headers: Headers | undefined) => string),
  options: DownloadOptions = {},
): Promise<void> {
  let headers: Headers | undefined;
  const blob = await apiDownload(path, token, {
    ...options,
    onProgress: (received, answer) => {
      headers = answer;
      options.onProgress?.(received, answer);
    },
  });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = typeof filename === 'string' ? filename : filename(headers);
  anchor.click();
  URL.revokeObjectURL(url);
}
