import fs from 'node:fs/promises';
import path from 'node:path';
import http from 'node:http';
import { Readable } from 'node:stream';

export interface UploadFile {
  field: string;
  filename: string;
  contentType: string;
  /** The file's bytes, produced as a stream so nothing big is held in memory. */
  chunks: () => AsyncIterable<Buffer>;
}

/** Streams a multipart/form-data POST (chunked) and answers the status and body. */
export async function postMultipart(
  url: string,
  fields: Record<string, string>,
  files: UploadFile[],
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const boundary = `----confab${Math.random().toString(16).slice(2)}`;
  async function* body(): AsyncGenerator<Buffer> {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
    }
    for (const file of files) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      );
      yield* file.chunks();
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    Readable.from(body()).pipe(request);
  });
}

/** The committed one-second H.264 clip. */
const CLIP = path.resolve(import.meta.dirname, '../../tests/fixtures/clip.mp4');

/**
 * An MP4 of `size` bytes: a real one-second clip (the committed fixture, `moov` first) followed
 * by a top-level `free` box of filler. Its box tree is whole, as the upload checks while it
 * blanks a video's metadata (decision 095), and ffmpeg reads it as the clip it is, as the upload
 * does to take its poster (decision 154).
 */
export function mp4Chunks(size: number): () => AsyncIterable<Buffer> {
  return async function* () {
    const clip = await fs.readFile(CLIP);
    const free = Buffer.alloc(8);
    free.writeUInt32BE(size - clip.length, 0);
    free.write('free', 4, 'latin1');
    yield Buffer.concat([clip, free]);
    const block = Buffer.alloc(1024 * 1024, 0);
    let left = size - clip.length - free.length;
    while (left > 0) {
      const n = Math.min(left, block.length);
      yield n === block.length ? block : block.subarray(0, n);
      left -= n;
    }
  };
}
