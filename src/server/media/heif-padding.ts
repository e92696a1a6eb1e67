/**
 * A HEIF file's coded pictures with bytes added after their end, for telling a whole picture
 * from one whose coded data is cut short (decision 201).
 *
 * An HEVC decoder reads a picture's slice data until the slice says it ends; data cut short
 * does not make it stop: it decodes what it has and then reads past the end (as zeros), and
 * paints stripes where the picture was lost, without an error (libde265, which libheif uses,
 * and ffmpeg alike). A whole picture never needs a byte after its own; a cut one does. So the
 * picture is decoded twice: from the file, and from this copy whose coded items (`hvc1`) each
 * end with `PADDING` more bytes (the last NAL unit's length grown to match). Pixels that differ
 * mean the decoder read beyond the data: the picture is incomplete.
 *
 * The copy keeps the file's layout: each coded item's data is copied, padded, into a new `mdat`
 * box at the end, and only the offset and length of its `iloc` extent are rewritten in place.
 * Files this does not understand (several extents, data in `idat`, another NAL length size)
 * answer undefined, and are decoded without the check.
 */

/** How many bytes each coded item gets after its end, and what they are (no zeros, no 0x000003). */
const PADDING = 64;
const PADDING_BYTE = 0xa5;

interface Box {
  type: string;
  start: number;
  /** Where its content starts (after size, type, and the large size when there is one). */
  content: number;
  end: number;
}

function boxesIn(file: Buffer, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  for (let at = from; at + 8 <= to;) {
    let size = file.readUInt32BE(at);
    let content = at + 8;
    if (size === 1) {
      if (at + 16 > to) return [];
      size = Number(file.readBigUInt64BE(at + 8));
      content = at + 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < content - at || at + size > to) return [];
    boxes.push({
      type: file.toString('latin1', at + 4, at + 8),
      start: at,
      content,
      end: at + size,
    });
    at += size;
  }
  return boxes;
}

const readSized = (file: Buffer, at: number, size: number): number =>
  size === 0
    ? 0
    : size === 4
      ? file.readUInt32BE(at)
      : size === 8
        ? Number(file.readBigUInt64BE(at))
        : Number.NaN;

/** The ids of the items of type `hvc1` (`iinf`'s `infe` entries of version 2 or 3). */
function hevcItems(file: Buffer, iinf: Box): Set<number> {
  const version = file.readUInt8(iinf.content);
  const entries = iinf.content + 4 + (version === 0 ? 2 : 4);
  const ids = new Set<number>();
  for (const infe of boxesIn(file, entries, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const infeVersion = file.readUInt8(infe.content);
    if (infeVersion < 2) continue;
    const idSize = infeVersion === 2 ? 2 : 4;
    const id =
      idSize === 2 ? file.readUInt16BE(infe.content + 4) : file.readUInt32BE(infe.content + 4);
    const type = file.toString(
      'latin1',
      infe.content + 4 + idSize + 2,
      infe.content + 4 + idSize + 6,
    );
    if (type === 'hvc1') ids.add(id);
  }
  return ids;
}

/** The copy with every coded item padded, or undefined when the layout is not understood. */
export function withPaddedCodedData(file: Buffer): Buffer | undefined {
  try {
    const top = boxesIn(file, 0, file.length);
    const meta = top.find((box) => box.type === 'meta');
    const lastBox = top.at(-1);
    // A last box "to the end of the file" (size 0) would take in the box added after it.
    if (!meta || !lastBox || file.readUInt32BE(lastBox.start) === 0) return undefined;
    const children = boxesIn(file, meta.content + 4, meta.end);
    const iloc = children.find((box) => box.type === 'iloc');
    const iinf = children.find((box) => box.type === 'iinf');
    if (!iloc || !iinf) return undefined;
    const coded = hevcItems(file, iinf);
    if (coded.size === 0) return undefined;

    const out = Buffer.from(file);
    const version = file.readUInt8(iloc.content);
    const sizes = file.readUInt16BE(iloc.content + 4);
    const offsetSize = sizes >> 12;
    const lengthSize = (sizes >> 8) & 15;
    const baseOffsetSize = (sizes >> 4) & 15;
    const indexSize = version === 1 || version === 2 ? sizes & 15 : 0;
    let at = iloc.content + 6;
    const count = version < 2 ? file.readUInt16BE(at) : file.readUInt32BE(at);
    at += version < 2 ? 2 : 4;
    const copies: Buffer[] = [];
    let appendedAt = file.length + 8;
    for (let item = 0; item < count; item += 1) {
      const id = version < 2 ? file.readUInt16BE(at) : file.readUInt32BE(at);
      at += version < 2 ? 2 : 4;
      const method = version === 0 ? 0 : file.readUInt16BE(at) & 15;
      if (version !== 0) at += 2;
      at += 2; // data_reference_index
      const base = readSized(file, at, baseOffsetSize);
      at += baseOffsetSize;
      const extents = file.readUInt16BE(at);
      at += 2;
      const fields = at;
      at += extents * (indexSize + offsetSize + lengthSize);
      if (!coded.has(id)) continue;
      if (method !== 0 || extents !== 1 || offsetSize < 4 || lengthSize < 4) return undefined;
      const offsetAt = fields + indexSize;
      const lengthAt = offsetAt + offsetSize;
      const start = base + readSized(file, offsetAt, offsetSize);
      const length = readSized(file, lengthAt, lengthSize);
      if (
        !Number.isSafeInteger(start) ||
        !Number.isSafeInteger(length) ||
        start + length > file.length
      ) {
        return undefined;
      }
      // The item's NAL units, each after a 4-byte length: the last one grows by PADDING.
      const data = Buffer.from(file.subarray(start, start + length));
      let last = -1;
      for (let nal = 0; nal + 4 <= data.length; nal += 4 + data.readUInt32BE(nal)) last = nal;
      if (last < 0 || last + 4 + data.readUInt32BE(last) !== data.length) return undefined;
      data.writeUInt32BE(data.readUInt32BE(last) + PADDING, last);
      const copy = Buffer.concat([data, Buffer.alloc(PADDING, PADDING_BYTE)]);
      const newOffset = appendedAt - base;
      if (newOffset < 0) return undefined;
      if (offsetSize === 4) {
        if (newOffset > 0xffff_ffff) return undefined;
        out.writeUInt32BE(newOffset, offsetAt);
      } else {
        out.writeBigUInt64BE(BigInt(newOffset), offsetAt);
      }
      if (lengthSize === 4) out.writeUInt32BE(copy.length, lengthAt);
      else out.writeBigUInt64BE(BigInt(copy.length), lengthAt);
      copies.push(copy);
      appendedAt += copy.length;
    }
    if (copies.length === 0) return undefined;
    const mdat = Buffer.alloc(8);
    const size = 8 + copies.reduce((sum, copy) => sum + copy.length, 0);
    if (size > 0xffff_ffff) return undefined;
    mdat.writeUInt32BE(size, 0);
    mdat.write('mdat', 4, 'latin1');
    return Buffer.concat([out, mdat, ...copies]);
  } catch {
    return undefined;
  }
}
