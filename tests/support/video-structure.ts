/**
 * Reads the structure of MP4, QuickTime and WebM files for tests, on its own (not through the
 * code under test): the boxes of an ISO BMFF file and the elements of a Matroska segment.
 */

/** Containers whose children are listed, `udta` and `meta` included (to see what they held). */
const CONTAINERS = new Set([
  'moov',
  'trak',
  'mdia',
  'minf',
  'stbl',
  'edts',
  'dinf',
  'mvex',
  'moof',
  'traf',
  'udta',
  'meta',
]);

export interface Box {
  /** Types from the top, e.g. `moov/trak/mdia`. */
  path: string;
  type: string;
  offset: number;
  size: number;
}

/** Every box of an MP4 or QuickTime file, depth first, in file order. */
export function listBoxes(data: Buffer, start = 0, end = data.length, parent = ''): Box[] {
  const boxes: Box[] = [];
  let position = start;
  while (position + 8 <= end) {
    let size = data.readUInt32BE(position);
    const type = data.toString('latin1', position + 4, position + 8);
    let header = 8;
    if (size === 1) {
      size = Number(data.readBigUInt64BE(position + 8));
      header = 16;
    } else if (size === 0) {
      size = end - position;
    }
    if (size < header || position + size > end) throw new Error(`bad box at ${position}`);
    const path = parent ? `${parent}/${type}` : type;
    boxes.push({ path, type, offset: position, size });
    if (CONTAINERS.has(type)) {
      // An ISO `meta` is a full box (4 bytes of version and flags); QuickTime's is not.
      const skip = type === 'meta' && data.readUInt32BE(position + header) === 0 ? 4 : 0;
      boxes.push(...listBoxes(data, position + header + skip, position + size, path));
    }
    position += size;
  }
  return boxes;
}

export interface Element {
  id: number;
  offset: number;
  /** Header (ID and size) plus payload; undefined for an unknown size. */
  length: number | undefined;
  headerLength: number;
}

function vint(data: Buffer, position: number, keepMarker: boolean) {
  const first = data[position] ?? 0;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  let value = keepMarker ? first : first & ((0x80 >> (length - 1)) - 1);
  let allOnes = value === (0x80 >> (length - 1)) - 1;
  for (let i = 1; i < length; i++) {
    const byte = data[position + i] ?? 0;
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** The elements of a WebM file's top level and of its segment (clusters of known size only). */
export function listSegmentElements(data: Buffer): Element[] {
  const elements: Element[] = [];
  const read = (position: number): Element => {
    const id = vint(data, position, true);
    const size = vint(data, position + id.length, false);
    const headerLength = id.length + size.length;
    return {
      id: id.value,
      offset: position,
      length: size.unknown ? undefined : headerLength + size.value,
      headerLength,
    };
  };
  const ebml = read(0);
  elements.push(ebml);
  const segment = read(ebml.length ?? 0);
  elements.push(segment);
  const end = segment.length === undefined ? data.length : segment.offset + segment.length;
  for (let position = segment.offset + segment.headerLength; position < end;) {
    const element = read(position);
    elements.push(element);
    if (element.length === undefined) break;
    position += element.length;
  }
  return elements;
}

export const TAGS_ID = 0x1254c367;
export const VOID_ID = 0xec;

/** Whether `needle` occurs in `data`, as Latin-1 text. */
export const contains = (data: Buffer, needle: string): boolean =>
  data.includes(Buffer.from(needle, 'latin1'));

/** The strings the fixtures carry about place and device: none may be served. */
export const LOCATION_AND_DEVICE = [
  '+48.8584',
  '48,51.504N',
  'GPSLatitude',
  'com.apple.quicktime',
  '\u00a9xyz',
  'Apple',
  'iPhone',
  'samsung',
  'SM-G991B',
  'Dinner at home',
];

/**
 * The ranges where `after` differs from `before` (same length), as [start, end) pairs: what a
 * stripped file changed.
 */
export function changedRanges(before: Buffer, after: Buffer): [number, number][] {
  if (before.length !== after.length) throw new Error('lengths differ');
  const ranges: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= before.length; i++) {
    const differs = i < before.length && before[i] !== after[i];
    if (differs && start < 0) start = i;
    if (!differs && start >= 0) {
      ranges.push([start, i]);
      start = -1;
    }
  }
  return ranges;
}
