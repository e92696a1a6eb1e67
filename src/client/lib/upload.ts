import { type AnswerSchema, ApiError, baseHeaders, readResponse } from './api-client.ts';

export interface UploadOptions {
  /** Called as the body goes out, with the share sent so far (0 to 1). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** An attendee token, sent as `Authorization: Bearer`. */
  token?: string | undefined;
  /** More request headers (an `Idempotency-Key`). */
  headers?: Record<string, string>;
}

/**
 * Posts a multipart form with upload progress (fetch cannot report it, XHR can). The answer
 * is read like every other call: JSON, or an ApiError carrying the server's message.
 */
export function uploadForm<T>(
  schema: AnswerSchema<T>,
  path: string,
  body: FormData,
  { onProgress, signal, token, headers = {} }: UploadOptions = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries({ ...baseHeaders(), ...headers })) {
      xhr.setRequestHeader(name, value);
    }
    xhr.setRequestHeader('accept', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      onProgress?.(1);
      const response = new Response(xhr.responseText, {
        status: xhr.status,
        headers: {
          'content-type': xhr.getResponseHeader('content-type') ?? 'application/json',
          'retry-after': xhr.getResponseHeader('retry-after') ?? '',
        },
      });
      readResponse(schema, response).then(resolve, reject);
    });
    xhr.addEventListener('error', () => reject(new ApiError(0)));
    xhr.addEventListener('abort', () =>
      reject(new DOMException('The upload was cancelled', 'AbortError')),
    );
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
