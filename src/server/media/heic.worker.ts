/**
 * The HEIF decoding worker that `heic.ts` starts for each file: it decodes the primary picture
 * with libheif (WebAssembly) and answers one message, then exits. It imports nothing of the
 * server (only Node's modules and libheif), so a worker loads little; `heic.ts` imports its
 * types. Everything libheif prints (its `print`/`printErr` and the wrapper's console calls)
 * is collected and handed back, never written to the process's output.
 */
import { createHash } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { type Transferable, parentPort, workerData } from 'node:worker_threads';
import type {
  MainModule,
  heif_context,
  heif_image,
  heif_image_handle,
} from 'libheif-js/libheif-wasm/libheif.js';

/** Why a HEIF file could not become pixels. */
export type HeifFailure = 'damaged' | 'too-large' | 'no-still-image';

/** What the worker is given. */
export interface HeicWorkerData {
  /** The file, owned by the worker (transferred). */
  buffer: ArrayBuffer;
  /** libheif's `WebAssembly.Module`, compiled once by the main thread. */
  wasm: object;
  maxPixels: number;
  /** Whether the file is an image sequence: a file that does not read is then one without a still. */
  sequence: boolean;
  /** The file with bytes after each coded picture (`heif-padding.ts`), if it has coded data. */
  padded: ArrayBuffer | undefined;
}

/** The worker's one answer: the picture as a TIFF, or why there is none. */
export interface HeicWorkerAnswer {
  tiff?: Uint8Array;
  width?: number;
  height?: number;
  alpha?: boolean;
  failure?: HeifFailure;
  error?: string;
  said: string[];
}

/** A decoded plane, as the binding's `heif_js_decode_image2` gives it. */
interface Plane {
  id: unknown;
  width: number;
  height: number;
  stride: number;
  data: Uint8Array;
}

/** What the binding's `heif_js_decode_image2` answers: the image and its planes, or an error. */
interface Decoded {
  image?: heif_image;
  channels?: Plane[];
  message?: string;
}

/** A primary image handle (an error instead has a `code`), with its pointer into the heap. */
type Handle = heif_image_handle & { code?: unknown; $$: { ptr: number } };

/** The parts of the module the binding's types leave untyped. */
type Heif = Omit<MainModule, 'HEAP32' | 'HEAPU8'> & {
  HEAP32: Int32Array;
  HEAPU8: Uint8Array;
  ready?: Promise<unknown>;
};

// The server's type library has no `WebAssembly` declarations (they come with the DOM's).
interface WasmInstance {
  exports: object;
}
const { WebAssembly: webAssembly } = globalThis as unknown as {
  WebAssembly: { Instance: new (module: object, imports: object) => WasmInstance };
};

const port = parentPort;
if (!port) throw new Error('heic.worker.ts runs as a worker thread');
const data = workerData as HeicWorkerData;

// Linux: this thread alone yields the CPU to the event loop (a thread's nice value is its own),
// so requests are answered at once while a photo decodes.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) setPriority(tid, 10);
} catch {
  // Another system, or not allowed: the thread keeps the process's priority.
}

const said: string[] = [];
const keep = (...parts: unknown[]) => {
  if (said.length < 20) said.push(parts.map(String).join(' ').slice(0, 500));
};
console.log = console.info = console.warn = console.error = console.debug = keep;
const answer = (message: Omit<HeicWorkerAnswer, 'said'>, transfer: Transferable[] = []) => {
  port.postMessage({ ...message, said }, transfer);
};
const fourcc = (value: number) =>
  String.fromCharCode(value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255);

/** An uncompressed, little-endian TIFF of interleaved 8-bit RGB(A), with an ICC profile. */
function tiffLayout(width: number, height: number, channels: number, icc: Buffer | undefined) {
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
  // [tag, type (3: SHORT, 4: LONG, 7: UNDEFINED), count, value or offset]
  const entries: [number, number, number, number][] = [
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
function digest(plane: Plane, row: number, height: number): string {
  const hash = createHash('sha256');
  if (plane.stride === row) hash.update(plane.data.subarray(0, row * height));
  else {
    for (let y = 0; y < height; y += 1) {
      hash.update(plane.data.subarray(y * plane.stride, y * plane.stride + row));
    }
  }
  return hash.digest('hex');
}

/** The primary image's handle in `context`; undefined when there is none. */
function primaryHandle(heif: Heif, context: heif_context): Handle | undefined {
  const handle = heif.heif_js_context_get_primary_image_handle(context) as Handle | undefined;
  return handle && handle.code === undefined ? handle : undefined;
}

/** The interleaved RGB(A) decoding of `handle`. */
function decode(heif: Heif, handle: Handle, alpha: boolean): Decoded | undefined {
  return heif.heif_js_decode_image2(
    handle,
    heif.heif_colorspace.heif_colorspace_RGB,
    alpha
      ? heif.heif_chroma.heif_chroma_interleaved_RGBA
      : heif.heif_chroma.heif_chroma_interleaved_RGB,
  ) as Decoded | undefined;
}

const interleaved = (heif: Heif, decoded: Decoded) =>
  decoded.channels?.find((c) => c.id === heif.heif_channel.heif_channel_interleaved);

/** The digest of the primary picture of `bytes`, decoded as the file's own is; undefined if it is not. */
function pictureDigest(
  heif: Heif,
  bytes: ArrayBuffer,
  alpha: boolean,
  row: number,
  height: number,
): string | undefined {
  const context = heif.heif_context_alloc();
  let handle: Handle | undefined;
  let image: heif_image | undefined;
  try {
    const read = heif.heif_context_read_from_memory(context, new Uint8Array(bytes));
    if (read.code !== heif.heif_error_code.heif_error_Ok) return undefined;
    handle = primaryHandle(heif, context);
    if (!handle) return undefined;
    const decoded = decode(heif, handle, alpha);
    if (!decoded?.channels) return undefined;
    image = decoded.image;
    const plane = interleaved(heif, decoded);
    return plane && plane.width * (alpha ? 4 : 3) === row && plane.height === height
      ? digest(plane, row, height)
      : undefined;
  } finally {
    if (image) heif.heif_image_release(image);
    if (handle) heif.heif_image_handle_release(handle);
    heif.heif_context_free(context);
  }
}

/** The ICC profile of `handle` (libheif takes a grid's from its tiles), if it has one. */
function iccProfile(heif: Heif, handle: Handle): Buffer | undefined {
  // The binding does not wrap these calls: they take the handle's pointer (decision 152).
  const pointer = handle.$$.ptr;
  if (fourcc(heif._heif_image_handle_get_color_profile_type(pointer)) === 'nclx') return undefined;
  const size = heif._heif_image_handle_get_raw_color_profile_size(pointer);
  if (size <= 0 || size >= 4_000_000) return undefined;
  const out = heif._malloc(size);
  const error = heif._malloc(16);
  heif._heif_image_handle_get_raw_color_profile(error, pointer, out);
  const icc =
    heif.HEAP32[error >> 2] === 0 ? Buffer.from(heif.HEAPU8.subarray(out, out + size)) : undefined;
  heif._free(out);
  heif._free(error);
  return icc;
}

async function run(): Promise<void> {
  const require = createRequire(import.meta.url);
  const factory = require('libheif-js/libheif-wasm/libheif.js') as (
    options: object,
  ) => Heif | Promise<Heif>;
  const heif = await factory({
    print: keep,
    printErr: keep,
    // The module compiled once by the main thread.
    instantiateWasm(imports: object, done: (instance: WasmInstance, module: object) => void) {
      const instance = new webAssembly.Instance(data.wasm, imports);
      done(instance, data.wasm);
      return instance.exports;
    },
  });
  await heif.ready;
  const context = heif.heif_context_alloc();
  let handle: Handle | undefined;
  let image: heif_image | undefined;
  try {
    const read = heif.heif_context_read_from_memory(context, new Uint8Array(data.buffer));
    if (read.code !== heif.heif_error_code.heif_error_Ok) {
      answer({
        failure: data.sequence ? 'no-still-image' : 'damaged',
        error: read.message as string,
      });
      return;
    }
    handle = primaryHandle(heif, context);
    if (!handle) {
      answer({ failure: data.sequence ? 'no-still-image' : 'damaged', error: 'no primary image' });
      return;
    }
    const width = heif.heif_image_handle_get_width(handle);
    const height = heif.heif_image_handle_get_height(handle);
    if (width * height > data.maxPixels) {
      answer({ failure: 'too-large', error: 'over the pixel cap', width, height });
      return;
    }
    const alpha = heif.heif_image_handle_has_alpha_channel(handle) === 1;
    const icc = iccProfile(heif, handle);
    const channels = alpha ? 4 : 3;
    const row = width * channels;
    // The picture decoded from the copy whose coded data has bytes after its end (heif-padding.ts):
    // first, and released before the file's own is decoded, so two never sit in memory at once.
    const reference = data.padded
      ? pictureDigest(heif, data.padded, alpha, row, height)
      : undefined;
    const decoded = decode(heif, handle, alpha);
    if (!decoded?.channels) {
      answer({ failure: 'damaged', error: decoded?.message || 'no pixels' });
      return;
    }
    image = decoded.image;
    const plane = interleaved(heif, decoded);
    if (!plane || plane.width !== width || plane.height !== height) {
      answer({ failure: 'damaged', error: 'the decoded image is not the size the file signals' });
      return;
    }
    // The decoder read beyond the coded data: the picture was cut short, and what it painted
    // for the missing part is not the photo.
    if (reference !== undefined && digest(plane, row, height) !== reference) {
      answer({ failure: 'damaged', error: 'the coded picture ends before the picture does' });
      return;
    }
    const { header, pixelsAt } = tiffLayout(width, height, channels, icc);
    // One copy out of the WebAssembly heap, straight into the TIFF that sharp reads.
    const tiff = new Uint8Array(pixelsAt + row * height);
    tiff.set(header, 0);
    if (plane.stride === row) tiff.set(plane.data.subarray(0, row * height), pixelsAt);
    else {
      for (let y = 0; y < height; y += 1) {
        tiff.set(plane.data.subarray(y * plane.stride, y * plane.stride + row), pixelsAt + y * row);
      }
    }
    answer({ tiff, width, height, alpha }, [tiff.buffer]);
  } finally {
    if (image) heif.heif_image_release(image);
    if (handle) heif.heif_image_handle_release(handle);
    heif.heif_context_free(context);
  }
}

run().catch((error: unknown) => {
  answer({ failure: 'damaged', error: (error instanceof Error && error.message) || String(error) });
});
