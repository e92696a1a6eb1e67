import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { withPaddedCodedData } from './heif-padding.ts';

/**
 * HEIC/HEIF (what iPhones take) decoded to upright pixels, for sharp to render.
 *
 * The libvips inside sharp's prebuilt binaries decodes HEIF only with AV1 (AVIF): HEVC is left
 * out for patent reasons. libheif compiled to WebAssembly (libheif-js) does the work here, in a
 * worker thread that exits after each file (its memory goes back to the system), because
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
const libheifPath = require.resolve('libheif-js/libheif-wasm/libheif.js');
const libheifWasmPath = require.resolve('libheif-js/libheif-wasm/libheif.wasm');

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

/** Why a HEIF file could not become pixels. */
export type HeifFailure = 'damaged' | 'too-large' | 'no-still-image';

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

// Plain CommonJS run by the worker. Everything libheif prints (its `print`/`printErr` and the
// wrapper's console calls) is collected and handed back, never written to the process's output.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// Linux: this thread alone yields the CPU to the event loop (a thread's nice value is its own),
// so requests are answered at once while a photo decodes.
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) require('node:os').setPriority(tid, 10);
} catch {}
const said = [];
const keep = (...parts) => { if (said.length < 20) said.push(parts.map(String).join(' ').slice(0, 500)); };
console.log = console.info = console.warn = console.error = console.debug = keep;
const answer = (message, transfer) => parentPort.postMessage({ ...message, said }, transfer);
const fourcc = (value) => String.fromCharCode(value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255);

/** An uncompressed, little-endian TIFF of interleaved 8-bit RGB(A), with an ICC profile. */
function tiffLayout(width, height, channels, icc) {
  const tags = 10 + (channels === 4 ? 1 : 0) + (icc ? 1 : 0);
  const ifdSize = 2 + tags * 12 + 4;
  const bitsAt = 8 + ifdSize;
  const iccAt = bitsAt + channels * 2;
  const pixelsAt = Math.ceil((iccAt + (icc ? icc.length : 0)) / 16) * 16;
  const header = Buffer.alloc(pixelsAt);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  header.writeUInt32LE(8, 4);
  let at = 10;
  const entries = [
    [256, 4, 1, width],
    [257, 4, 1, height],
    [258, 3, channels, bitsAt],
    [259, 3, 1, 1],
    [262, 3, 1, 2],
    [273, 4, 1, pixelsAt],
    [277, 3, 1, channels],
    [278, 4, 1, height],
    [279, 4, 1, width * height * channels],
    [284, 3, 1, 1],
  ];
  if (channels === 4) entries.push([338, 3, 1, 2]);
  if (icc) entries.push([34675, 7, icc.length, iccAt]);
  header.writeUInt16LE(entries.length, 8);
  for (const [tag, type, count, value] of entries) {
    header.writeUInt16LE(tag, at);
    header.writeUInt16LE(type, at + 2);
    header.writeUInt32LE(count, at + 4);
    if (type === 3 && count === 1) header.writeUInt16LE(value, at + 8);
    else header.writeUInt32LE(value, at + 8);
    at += 12;
  }
  header.writeUInt32LE(0, at);
  for (let i = 0; i < channels; i += 1) header.writeUInt16LE(8, bitsAt + i * 2);
  if (icc) icc.copy(header, iccAt);
  return { header, pixelsAt };
}

/** SHA-256 of a decoded plane's rows (without the padding at the end of each). */
function digest(plane, row, height) {
  const hash = require('node:crypto').createHash('sha256');
  if (plane.stride === row) hash.update(plane.data.subarray(0, row * height));
  else for (let y = 0; y < height; y += 1) hash.update(plane.data.subarray(y * plane.stride, y * plane.stride + row));
  return hash.digest('hex');
}

let heif;
/** The digest of the primary picture of \`bytes\`, decoded as the file's own is; undefined if it is not. */
function pictureDigest(bytes, alpha, row, height) {
  const context = heif.heif_context_alloc();
  let handle;
  let image;
  try {
    if (heif.heif_context_read_from_memory(context, new Uint8Array(bytes)).code !== heif.heif_error_code.heif_error_Ok) return undefined;
    handle = heif.heif_js_context_get_primary_image_handle(context);
    if (!handle || handle.code !== undefined) {
      handle = undefined;
      return undefined;
    }
    const decoded = heif.heif_js_decode_image2(
      handle,
      heif.heif_colorspace.heif_colorspace_RGB,
      alpha ? heif.heif_chroma.heif_chroma_interleaved_RGBA : heif.heif_chroma.heif_chroma_interleaved_RGB,
    );
    if (!decoded || !decoded.channels) return undefined;
    image = decoded.image;
    const plane = decoded.channels.find((c) => c.id === heif.heif_channel.heif_channel_interleaved);
    return plane && plane.width * (alpha ? 4 : 3) === row && plane.height === height ? digest(plane, row, height) : undefined;
  } finally {
    if (image) heif.heif_image_release(image);
    if (handle) heif.heif_image_handle_release(handle);
    heif.heif_context_free(context);
  }
}

(async () => {
  const created = require(workerData.modulePath)({
    print: keep,
    printErr: keep,
    // The module compiled once by the main thread.
    instantiateWasm(imports, done) {
      const instance = new WebAssembly.Instance(workerData.wasm, imports);
      done(instance, workerData.wasm);
      return instance.exports;
    },
  });
  heif = typeof created.then === 'function' ? await created : created;
  await heif.ready;
  const ok = heif.heif_error_code.heif_error_Ok;
  const context = heif.heif_context_alloc();
  let handle;
  let image;
  try {
    const read = heif.heif_context_read_from_memory(context, new Uint8Array(workerData.buffer));
    if (read.code !== ok) {
      return answer({ failure: workerData.sequence ? 'no-still-image' : 'damaged', error: read.message });
    }
    handle = heif.heif_js_context_get_primary_image_handle(context);
    if (!handle || handle.code !== undefined) {
      handle = undefined;
      return answer({ failure: workerData.sequence ? 'no-still-image' : 'damaged', error: 'no primary image' });
    }
    const width = heif.heif_image_handle_get_width(handle);
    const height = heif.heif_image_handle_get_height(handle);
    if (width * height > workerData.maxPixels) {
      return answer({ failure: 'too-large', error: 'over the pixel cap', width, height });
    }
    const alpha = heif.heif_image_handle_has_alpha_channel(handle) === 1;
    // The colour profile of the primary image (libheif takes a grid's from its tiles).
    const pointer = handle.$$.ptr;
    let icc;
    if (fourcc(heif._heif_image_handle_get_color_profile_type(pointer)) !== 'nclx') {
      const size = heif._heif_image_handle_get_raw_color_profile_size(pointer);
      if (size > 0 && size < 4_000_000) {
        const out = heif._malloc(size);
        const error = heif._malloc(16);
        heif._heif_image_handle_get_raw_color_profile(error, pointer, out);
        if (heif.HEAP32[error >> 2] === 0) icc = Buffer.from(heif.HEAPU8.subarray(out, out + size));
        heif._free(out);
        heif._free(error);
      }
    }
    const channels = alpha ? 4 : 3;
    const row = width * channels;
    // The picture decoded from the copy whose coded data has bytes after its end (heif-padding.ts):
    // first, and released before the file's own is decoded, so two never sit in memory at once.
    const reference = workerData.padded ? pictureDigest(workerData.padded, alpha, row, height) : undefined;
    const decoded = heif.heif_js_decode_image2(
      handle,
      heif.heif_colorspace.heif_colorspace_RGB,
      alpha ? heif.heif_chroma.heif_chroma_interleaved_RGBA : heif.heif_chroma.heif_chroma_interleaved_RGB,
    );
    if (!decoded || !decoded.channels) {
      return answer({ failure: 'damaged', error: (decoded && decoded.message) || 'no pixels' });
    }
    image = decoded.image;
    const plane = decoded.channels.find((c) => c.id === heif.heif_channel.heif_channel_interleaved);
    if (!plane || plane.width !== width || plane.height !== height) {
      return answer({ failure: 'damaged', error: 'the decoded image is not the size the file signals' });
    }
    // The decoder read beyond the coded data: the picture was cut short, and what it painted
    // for the missing part is not the photo.
    if (reference !== undefined && digest(plane, row, height) !== reference) {
      return answer({ failure: 'damaged', error: 'the coded picture ends before the picture does' });
    }
    const { header, pixelsAt } = tiffLayout(width, height, channels, icc);
    // One copy out of the WebAssembly heap, straight into the TIFF that sharp reads.
    const tiff = new Uint8Array(pixelsAt + row * height);
    tiff.set(header, 0);
    if (plane.stride === row) tiff.set(plane.data.subarray(0, row * height), pixelsAt);
    else for (let y = 0; y < height; y += 1) tiff.set(plane.data.subarray(y * plane.stride, y * plane.stride + row), pixelsAt + y * row);
    answer({ tiff, width, height, alpha }, [tiff.buffer]);
  } finally {
    if (image) heif.heif_image_release(image);
    if (handle) heif.heif_image_handle_release(handle);
    heif.heif_context_free(context);
  }
})().catch((error) => answer({ failure: 'damaged', error: String((error && error.message) || error) }));
`;

interface WorkerAnswer {
  tiff?: Uint8Array;
  width?: number;
  height?: number;
  alpha?: boolean;
  failure?: HeifFailure;
  error?: string;
  said?: string[];
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
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // Anything written to the worker's own stdout or stderr is collected too.
      stdout: true,
      stderr: true,
      workerData: {
        buffer,
        modulePath: libheifPath,
        wasm,
        maxPixels: MAX_IMAGE_PIXELS,
        sequence: isSequence(file),
        padded: paddedBuffer,
      },
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
    worker.once('message', (answer: WorkerAnswer) => {
      settle(answer.said ?? [], () => {
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
