import { UPLOADS_PATH } from '../../shared/schemas/upload.ts';
import { ApiError, baseHeaders, isRetryLaterStatus, parseRetryAfter } from './api-client.ts';

export interface ResumableFile {
  file: File;
  metadata: { caption: string; username: string; postId: string };
  token: string;
  /** Bytes the server has of this file, and its size. */
  onProgress?: (sent: number, total: number) => void;
  /** Called with true while the connection is gone and the upload waits for it. */
  onWaiting?: (waiting: boolean) => void;
  signal?: AbortSignal;
}

/** The part of a file sent in one PATCH: a dropped connection costs at most this much. */
export const CHUNK_BYTES = 5 * 1024 * 1024;

const online = () => typeof navigator === 'undefined' || navigator.onLine;

/**
 * Resolves when the connection may be back: when the browser says it is online again, or, when
 * it says so already (a Wi-Fi that is joined but passes nothing), after `delayMs`.
 */
const backOnline = (signal?: AbortSignal, delayMs = 0) =>
  new Promise<void>((resolve) => {
    if (online()) {
      setTimeout(resolve, delayMs);
      return;
    }
    const done = () => {
      window.removeEventListener('online', done);
      resolve();
    };
    window.addEventListener('online', done);
    signal?.addEventListener('abort', done, { once: true });
  });

/** A refused upload as an ApiError: the server's `{ error }` text and its `Retry-After`. */
function refusal(body: string | undefined, status: number, retryAfter: string | undefined) {
  let message: string | undefined;
  try {
    message = (JSON.parse(body ?? '') as { error?: string }).error;
  } catch {
    message = undefined;
  }
  return new ApiError(
    status,
    message ? { error: message } : undefined,
    parseRetryAfter(retryAfter),
  );
}

/**
 * Uploads one file over tus (`/api/uploads`): in 5 MB pieces, each acknowledged; when the
 * connection drops it waits for it to come back and goes on from the server's offset; a page
 * closed and opened again finds the upload by the file's fingerprint in local storage and goes
 * on from there too. Resolves with the id of the memory it became.
 */
export async function uploadResumable({
  file,
  metadata,
  token,
  onProgress,
  onWaiting,
  signal,
}: ResumableFile): Promise<string> {
  // tus's client loads with the first upload, not with every screen.
  const { Upload } = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    /** Failures with no answer in a row: each waits longer, up to 30 s. */
    let silent = 0;
    const upload = new Upload(file, {
      endpoint: UPLOADS_PATH,
      chunkSize: CHUNK_BYTES,
      // Short waits for a blip; a longer outage is waited out below, for as long as it lasts.
      retryDelays: [0, 1000, 3000, 5000, 10000],
      storeFingerprintForResuming: true,
      // The post is part of it: the same photo in another post is another upload.
      fingerprint: (source) =>
        Promise.resolve(
          [
            'confab',
            metadata.postId,
            source.name,
            source.type,
            source.size,
            source.lastModified,
          ].join('-'),
        ),
      removeFingerprintOnSuccess: true,
      headers: { ...baseHeaders(), authorization: `Bearer ${token}` },
      metadata: {
        filename: file.name,
        filetype: file.type,
        caption: metadata.caption,
        username: metadata.username,
        postId: metadata.postId,
      },
      onProgress: (sent, total) => {
        silent = 0;
        onProgress?.(sent, total);
      },
      onShouldRetry: (error) => {
        // Offline: no retry now; the wait below goes on when the connection is back.
        if (!online()) return false;
        const status = error.originalResponse?.getStatus() ?? 0;
        // The server asks to wait (503 busy or down a moment, 429 limited, …): the queue waits
        // as long as its Retry-After says, then the upload resumes from the server's offset.
        if (isRetryLaterStatus(status)) return false;
        // No answer, a conflict (the offset moved), or a server error: try again.
        return status === 0 || status === 409 || status === 423 || status >= 500;
      },
      onSuccess: ({ lastResponse }) => {
        resolve(lastResponse.getHeader('memory-id') ?? '');
      },
      onError: (error) => {
        const response = 'originalResponse' in error ? error.originalResponse : null;
        const status = response?.getStatus() ?? 0;
        if (status === 0 && !signal?.aborted) {
          // The network is gone: wait for it, then resume from what the server has.
          onWaiting?.(true);
          silent += 1;
          void backOnline(signal, Math.min(30_000, 1000 * 2 ** silent)).then(() => {
            onWaiting?.(false);
            if (!signal?.aborted) upload.start();
          });
          return;
        }
        reject(
          status === 0
            ? new ApiError(0)
            : refusal(response?.getBody(), status, response?.getHeader('retry-after')),
        );
      },
    });
    signal?.addEventListener(
      'abort',
      () => {
        // Cancelled by the person: the server forgets the upload too.
        void upload.abort(true).catch(() => undefined);
        reject(new DOMException('The upload was cancelled', 'AbortError'));
      },
      { once: true },
    );
    void upload.findPreviousUploads().then((previous) => {
      const [last] = previous;
      if (last) upload.resumeFromPreviousUpload(last);
      if (online()) {
        upload.start();
      } else {
        onWaiting?.(true);
        void backOnline(signal).then(() => {
          onWaiting?.(false);
          if (!signal?.aborted) upload.start();
        });
      }
    });
  });
}
