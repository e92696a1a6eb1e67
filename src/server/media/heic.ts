import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { HeicWorkerAnswer, HeicWorkerData, HeifFailure } from './heic.worker.ts';
import { withPaddedCodedData } from './heif-padding.ts';

/**
 * HEIC/HEIF (what iPhones take) decoded to upright pixels, for sharp to render.
 *
 * The libvips inside sharp's prebuilt binaries decodes HEIF only with AV1 (AVIF): HEVC is left
 * out for patent reasons. libheif compiled to WebAssembly (libheif-js) does the work here, in a
 * worker thread (`heic.worker.ts`) that exits after each file (its memory goes back to the system), because
 * decoding a 12-megapixel photo takes seconds of CPU that would stall every request.
 *
 * The worker decodes the image the file marks as primary (not the first stored), keeps its
 * alpha channel, and hands back an uncompressed TIFF that carries the file's ICC profile, so
 * sharp converts a Display P3 photo to sRGB exactly as it does a P3-tagged JPEG (decision 147).
 * A picture whose coded data is cut short is refused as damaged: the worker decodes it a second
 * time with bytes added after its data, and the two differ only when the decoder needed more
 * than the file holds (`heif-padding.ts`, decision 201).
 */

/** The largest picture decoded, in pixels: a 100-megapixel photo holds 400 MB once decoded. */
export const MAX_IMAGE_PIXELS = 100_000_000;

/** Whether this sharp build decodes HEVC-coded HEIF itself. */
export const sharpDecodesHevc = (): boolean =>
  (sharp.format.heif.input.fileSuffix ?? []).some((suffix) => suffix === '.heic');

const require = createRequire(import.meta.url);
const libheifWasmPath = require.resolve('libheif-js/libheif-wasm/libheif.wasm');

/**
 * The worker's module beside this one: its TypeScript source where the server runs from its
 * sources (tsx, Vitest; Node runs a `.ts` worker by stripping its types), the compiled `.js` in
 * `dist/`, where tsc does not rewrite the extension inside a URL.
 */
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./heic.worker.ts', import.meta.url)
  : new URL('./heic.worker.js', import.meta.url);

/**
 * libheif's WebAssembly, compiled once (off the event loop) and shared by every decoding
 * worker: V8 shares compiled code between threads, so a worker neither compiles nor optimises
 * the 1.4 MB module again.
 */
let compiled: Promise<object> | undefined;
// The server's type library has no `WebAssembly` declarations (they come with the DOM's).
const { WebAssembly: webAssembly } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<object> };
};
const libheifModule = (): Promise<object> => {
  compiled ??= fs.readFile(libheifWasmPath).then((bytes) => webAssembly.compile(bytes));
  compiled.catch(() => (compiled = undefined));
  return compiled;
};

/** A HEIF file that did not decode, with the reason and what the decoder said. */
export class HeifDecodeError extends Error {
  constructor(
    readonly reason: HeifFailure,
    message: string,
    readonly width = 0,
    readonly height = 0,
  ) {
    super(message);
    this.name = 'HeifDecodeError';
  }
}

/** A decoded HEIF picture: an uncompressed TIFF (upright pixels, ICC profile, alpha if any). */
export interface DecodedHeif {
  tiff: Buffer;
  width: number;
  height: number;
  alpha: boolean;
}

/** The major brands of HEIF image sequences (bursts, animations). */
const SEQUENCE_BRANDS = new Set(['msf1', 'hevc', 'hevx', 'avis']);
const isSequence = (file: Uint8Array) =>
  SEQUENCE_BRANDS.has(Buffer.from(file.subarray(8, 12)).toString('latin1'));

/**
 * Decodes the primary image of a HEIF file with libheif (WebAssembly) in a worker that exits
 * afterwards. Whatever the decoder prints goes to `log` (the server's JSON log), never to the
 * process's output.
 */
export async function decodeHeicInWorker(
  file: Buffer,
  log: (said: string[]) => void = () => undefined,
): Promise<DecodedHeif> {
  const wasm = await libheifModule();
  // A copy the worker owns: the transfer leaves the caller's buffer untouched.
  const buffer = new Uint8Array(file).buffer;
  // The copy with bytes after each coded picture, decoded too: a cut picture decodes otherwise.
  const padded = withPaddedCodedData(file);
  const paddedBuffer = padded ? new Uint8Array(padded).buffer : undefined;
  return new Promise((resolve, reject) => {
    const workerData: HeicWorkerData = {
      buffer,
      wasm,
      maxPixels: MAX_IMAGE_PIXELS,
      sequence: isSequence(file),
      padded: paddedBuffer,
    };
    const worker = new Worker(WORKER_URL, {
      // Anything written to the worker's own stdout or stderr is collected too.
      stdout: true,
      stderr: true,
      workerData,
      transferList: paddedBuffer ? [buffer, paddedBuffer] : [buffer],
    });
    const streamed: string[] = [];
    const collect = (chunk: Buffer) => {
      if (streamed.length < 20) streamed.push(chunk.toString('utf8').trim().slice(0, 500));
    };
    worker.stdout.on('data', collect);
    worker.stderr.on('data', collect);
    let settled = false;
    const settle = (said: string[], action: () => void) => {
      if (settled) return;
      settled = true;
      const lines = [...said, ...streamed].filter((line) => line.length > 0);
      if (lines.length > 0) log(lines);
      action();
      void worker.terminate();
    };
    worker.once('message', (answer: HeicWorkerAnswer) => {
      settle(answer.said, () => {
        const { tiff, width, height } = answer;
        if (answer.failure || !tiff || !width || !height) {
          reject(
            new HeifDecodeError(
              answer.failure ?? 'damaged',
              `HEIF decoding failed: ${answer.error ?? 'no pixels'}`,
              answer.width,
              answer.height,
            ),
          );
        } else {
          resolve({
            tiff: Buffer.from(tiff.buffer, tiff.byteOffset, tiff.byteLength),
            width,
            height,
            alpha: answer.alpha === true,
          });
        }
      });
    });
    worker.once('error', (error: Error) =>
      settle([], () => reject(new HeifDecodeError('damaged', error.message))),
    );
    worker.once('exit', (code) =>
      settle([], () =>
        reject(new HeifDecodeError('damaged', `HEIF decoder stopped (exit code ${code})`)),
      ),
    );
  });
}
