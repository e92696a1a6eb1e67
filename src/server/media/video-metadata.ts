import fs from 'node:fs/promises';

/**
 * Blanks the metadata of a video file in place, without re-encoding and without moving a single
 * byte of media: what phones write about where and with what a video was taken (QuickTime
 * location keys, `©xyz`, XMP, make, model, software) is overwritten with a padding element of the
 * same size, so every offset in the file (MP4 chunk offsets, WebM cues) stays right.
 *
 * - ISO BMFF (MP4, QuickTime): every `udta` and `meta` box, every `uuid` box at the top level or
 *   in `moov`, and XMP `uuid` boxes anywhere else become `free` boxes with a zeroed payload.
 * - Matroska (WebM): `Tags`, `Attachments` and the segment `Title` become `Void` elements with a
 *   zeroed payload; the `SeekHead` entries that pointed at them too.
 *
 * The file is read through small bounded reads (headers only, payloads are skipped), and is
 * walked whole before anything is written: a file that cannot be walked is left as it was.
 */

/** Thrown when a video's structure cannot be walked: a box that runs past its end, and so on. */
export class MalformedVideoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedVideoError';
  }
}

/** One part of the file that was blanked: its whole box or element, header included. */
export interface BlankedRange {
  offset: number;
  length: number;
  /** The box type or element name it was, e.g. `udta` or `Tags`. */
  what: string;
}

/** An edit made once the whole file has been walked. */
interface Edit extends BlankedRange {
  /** Bytes written at `offset`, the new header. */
  header: Buffer;
}

/** Bytes read at once from where a header starts: payloads are skipped, never read whole. */
const WINDOW_BYTES = 64 * 1024;
const ZEROES = Buffer.alloc(64 * 1024);

/** Reads a file's bytes at given offsets through one small window; never past the end. */
class FileReader {
  readonly #handle: fs.FileHandle;
  readonly size: number;
  #window = Buffer.alloc(0);
  #windowStart = 0;

  constructor(handle: fs.FileHandle, size: number) {
    this.#handle = handle;
    this.size = size;
  }

  /** Up to `length` bytes at `position`, fewer only at the end of the file. */
  async read(position: number, length: number): Promise<Buffer> {
    const end = Math.min(position + length, this.size);
    if (position >= this.#windowStart && end <= this.#windowStart + this.#window.length) {
      return this.#window.subarray(position - this.#windowStart, end - this.#windowStart);
    }
    const buffer = Buffer.alloc(Math.max(0, Math.min(WINDOW_BYTES, this.size - position)));
    const { bytesRead } = await this.#handle.read(buffer, 0, buffer.length, position);
    this.#window = buffer.subarray(0, bytesRead);
    this.#windowStart = position;
    return this.#window.subarray(0, Math.max(0, end - position));
  }
}

const hex = (offset: number) => `0x${offset.toString(16)}`;

// ---------------------------------------------------------------------------------------------
// ISO BMFF (MP4, QuickTime)

/** The container boxes walked, by parent ('' is the file): the only places boxes are looked for. */
const BOX_CHILDREN: Record<string, readonly string[]> = {
  '': ['moov', 'moof'],
  moov: ['trak', 'mvex'],
  trak: ['mdia', 'edts'],
  mdia: ['minf'],
  minf: ['stbl', 'dinf'],
  moof: ['traf'],
};

/** Boxes that hold metadata only, blanked wherever they are found. */
const METADATA_BOXES = new Set(['udta', 'meta']);
/** The user type of a `uuid` box that holds XMP. */
const XMP_UUID = 'be7acfcb97a942e89c71999491e3afac';

async function walkBoxes(
  reader: FileReader,
  parent: string,
  start: number,
  end: number,
  edits: Edit[],
): Promise<string[]> {
  const found: string[] = [];
  let position = start;
  while (position < end) {
    if (end - position < 8) {
      throw new MalformedVideoError(`${end - position} stray bytes at ${hex(position)}`);
    }
    const head = await reader.read(position, Math.min(32, end - position));
    const size32 = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    let headerLength = 8;
    let size: number;
    if (size32 === 1) {
      if (head.length < 16) throw new MalformedVideoError(`box cut short at ${hex(position)}`);
      const large = head.readBigUInt64BE(8);
      if (large > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw new MalformedVideoError(`box at ${hex(position)} runs past the end`);
      }
      size = Number(large);
      headerLength = 16;
    } else {
      // Size 0: the box runs to the end of its parent (of the file, at the top).
      size = size32 === 0 ? end - position : size32;
    }
    let what = type;
    if (type === 'uuid') {
      if (head.length < headerLength + 16) {
        throw new MalformedVideoError(`box cut short at ${hex(position)}`);
      }
      what = `uuid ${head.toString('hex', headerLength, headerLength + 16)}`;
    }
    const minimum = type === 'uuid' ? headerLength + 16 : headerLength;
    if (size < minimum) {
      throw new MalformedVideoError(`box ${JSON.stringify(type)} at ${hex(position)} is too small`);
    }
    if (size > end - position) {
      throw new MalformedVideoError(
        `box ${JSON.stringify(type)} at ${hex(position)} runs past the end of its ${parent || 'file'}`,
      );
    }
    found.push(type);

    const blank =
      METADATA_BOXES.has(type) ||
      (type === 'uuid' && (parent === '' || parent === 'moov' || what === `uuid ${XMP_UUID}`));
    if (blank) {
      // Same size, type `free`: the size field (and a 64-bit size) stays, the rest is zeroed.
      const header = Buffer.from(head.subarray(0, headerLength));
      header.write('free', 4, 'latin1');
      edits.push({ offset: position, length: size, what, header });
    } else if (BOX_CHILDREN[parent]?.includes(type)) {
      await walkBoxes(reader, type, position + headerLength, position + size, edits);
    }
    position += size;
  }
  return found;
}

async function isoBmffEdits(reader: FileReader): Promise<Edit[]> {
  const edits: Edit[] = [];
  const topLevel = await walkBoxes(reader, '', 0, reader.size, edits);
  if (!topLevel.includes('moov')) throw new MalformedVideoError('the movie box (moov) is missing');
  return edits;
}

// ---------------------------------------------------------------------------------------------
// Matroska (WebM)

const EBML_ID = 0x1a45dfa3;
const SEGMENT_ID = 0x18538067;
const CLUSTER_ID = 0x1f43b675;
const INFO_ID = 0x1549a966;
const SEEK_HEAD_ID = 0x114d9b74;
const SEEK_ID = 0x4dbb;
const SEEK_ID_ID = 0x53ab;
const CRC32_ID = 0xbf;
const VOID_ID = 0xec;

/** Elements blanked whole where the segment holds them. */
const BLANKED_SEGMENT_CHILDREN = new Map([
  [0x1254c367, 'Tags'],
  [0x1941a469, 'Attachments'],
]);
/** Elements blanked inside the segment's Info. */
const BLANKED_INFO_CHILDREN = new Map([[0x7ba9, 'Title']]);

/** Elements that end a Cluster of unknown size: the segment's children, and the top level. */
const SEGMENT_LEVEL_IDS = new Set([
  EBML_ID,
  SEGMENT_ID,
  CLUSTER_ID,
  INFO_ID,
  SEEK_HEAD_ID,
  0x1654ae6b, // Tracks
  0x1c53bb6b, // Cues
  0x1043a770, // Chapters
  ...BLANKED_SEGMENT_CHILDREN.keys(),
]);

interface ElementHeader {
  id: number;
  offset: number;
  headerLength: number;
  /** Length of the size field, in bytes. */
  sizeLength: number;
  /** Payload size; undefined when unknown (all ones, allowed for Segment and Cluster only). */
  size: number | undefined;
}

/** Width of an EBML variable-length integer from its first byte (0 when longer than 8). */
const vintLength = (first: number): number => (first === 0 ? 0 : Math.clz32(first) - 23);

async function readElementHeader(
  reader: FileReader,
  position: number,
  end: number,
): Promise<ElementHeader> {
  const head = await reader.read(position, Math.min(12, end - position));
  const first = head[0] ?? 0;
  const idLength = vintLength(first);
  if (idLength < 1 || idLength > 4) {
    throw new MalformedVideoError(`no element at ${hex(position)}`);
  }
  const sizeFirst = head[idLength];
  const sizeLength = sizeFirst === undefined ? 0 : vintLength(sizeFirst);
  if (sizeFirst === undefined || sizeLength === 0 || head.length < idLength + sizeLength) {
    throw new MalformedVideoError(`element cut short at ${hex(position)}`);
  }
  let id = 0;
  for (let i = 0; i < idLength; i++) id = id * 256 + (head[i] ?? 0);
  const marker = 0x80 >> (sizeLength - 1);
  let value = sizeFirst & (marker - 1);
  let allOnes = value === marker - 1;
  for (let i = 1; i < sizeLength; i++) {
    const byte = head[idLength + i] ?? 0;
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return {
    id,
    offset: position,
    headerLength: idLength + sizeLength,
    sizeLength,
    size: allOnes ? undefined : value,
  };
}

/** An element's header, its size known and within `end`. */
async function readBoundedElement(
  reader: FileReader,
  position: number,
  end: number,
): Promise<ElementHeader & { size: number }> {
  const element = await readElementHeader(reader, position, end);
  if (element.size === undefined) {
    throw new MalformedVideoError(`element at ${hex(position)} has an unknown size`);
  }
  if (element.size > end - position - element.headerLength) {
    throw new MalformedVideoError(`element at ${hex(position)} runs past the end of its parent`);
  }
  return { ...element, size: element.size };
}

/** A Void element written over a whole element: same total length, payload zeroed. */
function voidEdit(element: ElementHeader & { size: number }, what: string): Edit {
  const length = element.headerLength + element.size;
  // The Void's size field takes the bytes the old ID and size took, less the Void's one-byte ID.
  const sizeLength = Math.min(8, element.headerLength - 1);
  const payload = length - 1 - sizeLength;
  const header = Buffer.alloc(1 + sizeLength);
  header[0] = VOID_ID;
  let rest = payload;
  for (let i = sizeLength; i >= 1; i--) {
    header[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  header[1] = (header[1] ?? 0) | (0x80 >> (sizeLength - 1));
  return { offset: element.offset, length, what, header };
}

/** Walks the children of a master element, calling `visit` for each (known size, within `end`). */
async function walkChildren(
  reader: FileReader,
  start: number,
  end: number,
  visit: (element: ElementHeader & { size: number }) => Promise<void> | void,
): Promise<void> {
  let position = start;
  while (position < end) {
    const element = await readBoundedElement(reader, position, end);
    await visit(element);
    position += element.headerLength + element.size;
  }
}

/** Blanks the children of Info or SeekHead that `blank` names, and the CRC then made wrong. */
async function blankChildren(
  reader: FileReader,
  parent: ElementHeader & { size: number },
  blank: (child: ElementHeader & { size: number }) => Promise<string | undefined>,
  edits: Edit[],
): Promise<void> {
  const start = parent.offset + parent.headerLength;
  const mine: Edit[] = [];
  let crc: (ElementHeader & { size: number }) | undefined;
  await walkChildren(reader, start, start + parent.size, async (child) => {
    if (child.id === CRC32_ID) {
      crc = child;
      return;
    }
    const what = await blank(child);
    if (what) mine.push(voidEdit(child, what));
  });
  if (mine.length > 0 && crc) mine.push(voidEdit(crc, 'CRC-32'));
  edits.push(...mine);
}

/** Whether a SeekHead entry points at an element that is blanked. */
async function seeksBlanked(
  reader: FileReader,
  seek: ElementHeader & { size: number },
): Promise<string | undefined> {
  if (seek.id !== SEEK_ID) return undefined;
  let target: string | undefined;
  const start = seek.offset + seek.headerLength;
  await walkChildren(reader, start, start + seek.size, async (child) => {
    if (child.id !== SEEK_ID_ID || child.size > 4) return;
    const bytes = await reader.read(child.offset + child.headerLength, child.size);
    const id = bytes.length === 0 ? 0 : bytes.readUIntBE(0, bytes.length);
    const name = BLANKED_SEGMENT_CHILDREN.get(id);
    if (name) target = `Seek ${name}`;
  });
  return target;
}

/** Walks the children of a Cluster of unknown size; answers where it ends. */
async function skipUnknownCluster(reader: FileReader, start: number, end: number): Promise<number> {
  let position = start;
  while (position < end) {
    const element = await readElementHeader(reader, position, end);
    if (SEGMENT_LEVEL_IDS.has(element.id)) return position;
    const bounded = await readBoundedElement(reader, position, end);
    position += bounded.headerLength + bounded.size;
  }
  return position;
}

async function walkSegment(
  reader: FileReader,
  start: number,
  end: number,
  edits: Edit[],
): Promise<void> {
  let position = start;
  while (position < end) {
    const element = await readElementHeader(reader, position, end);
    if (element.size === undefined) {
      if (element.id !== CLUSTER_ID) {
        throw new MalformedVideoError(`element at ${hex(position)} has an unknown size`);
      }
      position = await skipUnknownCluster(reader, position + element.headerLength, end);
      continue;
    }
    const bounded = await readBoundedElement(reader, position, end);
    const blanked = BLANKED_SEGMENT_CHILDREN.get(bounded.id);
    if (blanked) {
      edits.push(voidEdit(bounded, blanked));
    } else if (bounded.id === INFO_ID) {
      await blankChildren(
        reader,
        bounded,
        (child) => Promise.resolve(BLANKED_INFO_CHILDREN.get(child.id)),
        edits,
      );
    } else if (bounded.id === SEEK_HEAD_ID) {
      await blankChildren(reader, bounded, (child) => seeksBlanked(reader, child), edits);
    }
    position += bounded.headerLength + bounded.size;
  }
}

async function matroskaEdits(reader: FileReader): Promise<Edit[]> {
  const edits: Edit[] = [];
  let position = 0;
  let segments = 0;
  while (position < reader.size) {
    const element = await readElementHeader(reader, position, reader.size);
    if (position === 0 && element.id !== EBML_ID) {
      throw new MalformedVideoError('the EBML header is missing');
    }
    if (element.id === SEGMENT_ID) {
      segments++;
      const start = position + element.headerLength;
      // A segment of unknown size (a live recording) runs to the end of the file.
      const end =
        element.size === undefined
          ? reader.size
          : (await readBoundedElement(reader, position, reader.size)).size + start;
      await walkSegment(reader, start, end, edits);
      position = end;
      continue;
    }
    const bounded = await readBoundedElement(reader, position, reader.size);
    position += bounded.headerLength + bounded.size;
  }
  if (segments === 0) throw new MalformedVideoError('the segment is missing');
  return edits;
}

// ---------------------------------------------------------------------------------------------

async function zero(handle: fs.FileHandle, start: number, end: number): Promise<void> {
  for (let position = start; position < end; position += ZEROES.length) {
    const length = Math.min(ZEROES.length, end - position);
    await handle.write(ZEROES, 0, length, position);
  }
}

/**
 * Blanks the metadata of the MP4, QuickTime or WebM file at `file`, in place; its size does not
 * change. Answers what was blanked (nothing for a file without metadata, so a second run changes
 * nothing). Throws `MalformedVideoError`, leaving the file untouched, when the file's structure
 * cannot be walked (truncated, damaged, or not such a video).
 */
export async function stripVideoMetadata(file: string): Promise<BlankedRange[]> {
  const handle = await fs.open(file, 'r+');
  try {
    const { size } = await handle.stat();
    const reader = new FileReader(handle, size);
    const magic = await reader.read(0, 4);
    if (magic.length < 4) throw new MalformedVideoError('the file is too short to be a video');
    const edits =
      magic.readUInt32BE(0) === EBML_ID ? await matroskaEdits(reader) : await isoBmffEdits(reader);
    for (const edit of edits) {
      await handle.write(edit.header, 0, edit.header.length, edit.offset);
      await zero(handle, edit.offset + edit.header.length, edit.offset + edit.length);
    }
    return edits.map(({ offset, length, what }) => ({ offset, length, what }));
  } finally {
    await handle.close();
  }
}
