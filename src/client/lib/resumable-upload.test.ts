import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DetailedError, UploadOptions } from 'tus-js-client';
import { ApiError } from './api-client.ts';
import { uploadResumable } from './resumable-upload.ts';

/** tus's Upload, as far as the upload uses it: it keeps the options it was made with. */
const made: UploadOptions[] = [];
vi.mock('tus-js-client', () => ({
  Upload: class {
    constructor(_file: unknown, options: UploadOptions) {
      made.push(options);
    }
    findPreviousUploads() {
      return Promise.resolve([]);
    }
    start() {}
    abort() {
      return Promise.resolve();
    }
  },
}));

/** A failed tus request as tus reports it: the answer's status, body and headers. */
const answered = (status: number, body = '', headers: Record<string, string> = {}) =>
  Object.assign(new Error(`tus: ${status}`), {
    originalRequest: {},
    originalResponse: {
      getStatus: () => status,
      getBody: () => body,
      getHeader: (name: string) => headers[name.toLowerCase()],
    },
  }) as unknown as DetailedError;

async function startUpload() {
  made.length = 0;
  const upload = uploadResumable({
    file: new File(['bytes'], 'a.png', { type: 'image/png' }),
    metadata: { caption: 'Hello', username: 'ada', postId: 'p1' },
    token: 'token',
  });
  await vi.waitFor(() => expect(made).toHaveLength(1));
  const [options] = made;
  if (!options) throw new Error('no upload was made');
  return { upload, options };
}

beforeEach(() => {
  vi.stubGlobal('navigator', { onLine: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a tus upload the server cannot take now', () => {
  it('leaves 503 and 429 to the queue, with their Retry-After, and retries the rest', async () => {
    const { upload, options } = await startUpload();
    const shouldRetry = (status: number) => options.onShouldRetry?.(answered(status), 0, options);
    // The server asks to wait: not tus's short fixed delays, but as long as it says.
    expect(shouldRetry(503)).toBe(false);
    expect(shouldRetry(429)).toBe(false);
    // No answer, a moved offset, a server error: tus tries again at once.
    expect(shouldRetry(0)).toBe(true);
    expect(shouldRetry(409)).toBe(true);
    expect(shouldRetry(500)).toBe(true);
    // A refusal is final.
    expect(shouldRetry(400)).toBe(false);

    options.onError?.(
      answered(
        503,
        JSON.stringify({ error: 'The database cannot be reached', code: 'SERVICE_UNAVAILABLE' }),
        { 'retry-after': '5' },
      ),
    );
    const error = await upload.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 503,
      retryAfterSeconds: 5,
      message: 'The database cannot be reached',
    });
  });
});
