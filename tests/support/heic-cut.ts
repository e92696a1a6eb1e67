/**
 * A HEIC whose boxes are all whole but whose coded picture is cut short, as a phone's upload
 * that lost its end and was then "repaired" by a tool that fixed the sizes: `photo.heic`'s one
 * image item (a single HEVC slice in `mdat`) keeps its first `keep` bytes of slice data, and
 * the slice's length prefix, the item's extent in `iloc` and the `mdat` size all say so.
 *
 * Written for files like `tests/fixtures/photo.heic` (what `heif-enc` makes): `iloc` version
 * 0 or 1 with 4-byte offsets and lengths, one item of one extent, one
 * NAL unit in it, at the end of the file.
 */
export function cutCodedPicture(file: Buffer, keep: number): Buffer {
  const out = Buffer.from(file);
  const box = (type: string, from: number, to: number): number => {
    for (let at = from; at + 8 <= to;) {
      const size = out.readUInt32BE(at);
      if (out.toString('latin1', at + 4, at + 8) === type) return at;
      if (size < 8) break;
      at += size;
    }
    throw new Error(`no ${type} box`);
  };
  const meta = box('meta', 0, out.length);
  const iloc = box('iloc', meta + 12, meta + out.readUInt32BE(meta));
  const mdat = box('mdat', 0, out.length);
  const version = out.readUInt8(iloc + 8);
  const sizes = out.readUInt16BE(iloc + 12);
  const baseOffsetSize = (sizes >> 4) & 15;
  if (version > 1 || sizes >> 8 !== 0x44 || out.readUInt16BE(iloc + 14) !== 1) {
    throw new Error('only one item with 4-byte offsets and lengths is handled');
  }
  const baseOffset =
    baseOffsetSize === 4 ? out.readUInt32BE(iloc + 20 + (version === 1 ? 2 : 0)) : 0;
  if (baseOffsetSize !== 0 && baseOffsetSize !== 4) throw new Error('base offset size');
  // item_ID(2), [construction_method(2)], data_reference_index(2), base_offset, extent_count(2),
  // then the extent's offset and length.
  const extent = iloc + 16 + 2 + (version === 1 ? 2 : 0) + 2 + baseOffsetSize;
  if (out.readUInt16BE(extent) !== 1) throw new Error('only one extent is handled');
  const offset = baseOffset + out.readUInt32BE(extent + 2);
  const length = out.readUInt32BE(extent + 6);
  const nal = out.readUInt32BE(offset);
  if (nal + 4 !== length || keep >= nal) throw new Error('not one NAL unit longer than keep');
  const cut = nal - keep;
  out.writeUInt32BE(keep, offset);
  out.writeUInt32BE(length - cut, extent + 6);
  out.writeUInt32BE(out.readUInt32BE(mdat) - cut, mdat);
  if (offset + length !== out.length) throw new Error('the item is not the end of the file');
  return out.subarray(0, out.length - cut);
}
