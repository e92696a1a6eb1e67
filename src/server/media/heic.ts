import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { RawImage } from './images.ts';

/**
 * HEIC/HEIF (what iPhones take) decoded to upright pixels.
 *
 * The libvips inside sharp's prebuilt binaries decodes HEIF only with AV1 (AVIF): HEVC is left
 * out for patent reasons. Where sharp can read HEVC (a libvips built with libde265) it is used;
 * otherwise libheif compiled to WebAssembly (heic-decode) does the work, in a worker thread,
 * because decoding a 12-megapixel photo takes seconds of CPU that would stall every request.
 */

const MAX_PIXELS = 100_000_000;

/** Whether this sharp build decodes HEVC-coded HEIF itself. */
export const sharpDecodesHevc = (): boolean =>
  (sharp.format.heif.input.fileSuffix ?? []).some((suffix) => suffix === '.heic');

const heicDecodePath = createRequire(import.meta.url).resolve('heic-decode');

// Plain CommonJS run by the worker: decodes the first image of the file, after checking its size.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.modulePath);
(async () => {
  const images = await decode.all({ buffer: new Uint8Array(workerData.buffer) });
  try {
    const first = images[0];
    if (!first) throw new Error('no image in the file');
    if (first.width * first.height > workerData.maxPixels) throw new Error('image too large');
    const { width, height, data } = await first.decode();
    parentPort.postMessage({ width, height, data }, [data.buffer]);
  } finally {
    images.dispose();
  }
})().catch((error) => parentPort.postMessage({ error: String(error && error.message || error) }));
`;

interface WorkerAnswer {
  width?: number;
  height?: number;
  data?: Uint8ClampedArray;
  error?: string;
}

/** Decodes HEVC-coded HEIC with libheif (WebAssembly) in a worker that exits afterwards. */
export function decodeHeicInWorker(file: Buffer): Promise<RawImage> {
  // A copy the worker owns: the transfer leaves the caller's buffer untouched.
  const buffer = new Uint8Array(file).buffer;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { buffer, modulePath: heicDecodePath, maxPixels: MAX_PIXELS },
      transferList: [buffer],
    });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
      void worker.terminate();
    };
    worker.once('message', (answer: WorkerAnswer) => {
      settle(() => {
        if (answer.error || !answer.data || !answer.width || !answer.height) {
          reject(new Error(`HEIC decoding failed: ${answer.error ?? 'no pixels'}`));
        } else {
          resolve({
            raw: {
              data: new Uint8Array(answer.data.buffer),
              width: answer.width,
              height: answer.height,
              channels: 4,
            },
          });
        }
      });
    });
    worker.once('error', (error) =>
      settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`HEIC decoder stopped (exit code ${code})`))),
    );
  });
}
