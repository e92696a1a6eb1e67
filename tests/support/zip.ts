import zlib from 'node:zlib';

/** One file of a ZIP archive, read back. */
export interface ZipFileEntry {
  name: string;
  data: Buffer;
  /** The modification time the entry carries (DOS time: local, to 2 seconds). */
  modified: Date;
}

const EOCD = 0x06054b50;
const ZIP64_EOCD_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The ZIP64 extra field's values, in the order the header's 0xffffffff fields ask for them. */
function zip64Values(extra: Buffer): bigint[] {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      const values: bigint[] = [];
      for (let v = at + 4; v + 8 <= at + 4 + size; v += 8) values.push(extra.readBigUInt64LE(v));
      return values;
    }
    at += 4 + size;
  }
  return [];
}

/**
 * Reads a whole ZIP archive from its central directory (ZIP64 included), checking each file's
 * CRC-32: what an unzip tool does, for tests that compare what was archived with what was served.
 */
export function readZip(archive: Buffer): ZipFileEntry[] {
  let end = -1;
  for (let at = archive.length - 22; at >= Math.max(0, archive.length - 65_557); at -= 1) {
    if (archive.readUInt32LE(at) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('No end of central directory: not a ZIP archive');
  let count = archive.readUInt16LE(end + 10);
  let offset = archive.readUInt32LE(end + 16);
  if (end >= 20 && archive.readUInt32LE(end - 20) === ZIP64_EOCD_LOCATOR) {
    const zip64End = Number(archive.readBigUInt64LE(end - 20 + 8));
    count = Number(archive.readBigUInt64LE(zip64End + 32));
    offset = Number(archive.readBigUInt64LE(zip64End + 48));
  }
  const entries: ZipFileEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    if (archive.readUInt32LE(offset) !== CENTRAL) throw new Error(`Bad central header ${i}`);
    const method = archive.readUInt16LE(offset + 10);
    const time = archive.readUInt16LE(offset + 12);
    const date = archive.readUInt16LE(offset + 14);
    const crc = archive.readUInt32LE(offset + 16);
    let compressedSize = archive.readUInt32LE(offset + 20);
    let size = archive.readUInt32LE(offset + 24);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    let localOffset = archive.readUInt32LE(offset + 42);
    const name = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    const extra = archive.subarray(
      offset + 46 + nameLength,
      offset + 46 + nameLength + extraLength,
    );
    const wide = zip64Values(extra);
    if (size === 0xffffffff) size = Number(wide.shift());
    if (compressedSize === 0xffffffff) compressedSize = Number(wide.shift());
    if (localOffset === 0xffffffff) localOffset = Number(wide.shift());
    offset += 46 + nameLength + extraLength + commentLength;

    if (archive.readUInt32LE(localOffset) !== LOCAL) throw new Error(`Bad local header: ${name}`);
    const start =
      localOffset +
      30 +
      archive.readUInt16LE(localOffset + 26) +
      archive.readUInt16LE(localOffset + 28);
    const raw = archive.subarray(start, start + compressedSize);
    const data = method === 0 ? Buffer.from(raw) : zlib.inflateRawSync(raw);
    if (data.length !== size) throw new Error(`${name}: ${data.length} bytes, not ${size}`);
    if (zlib.crc32(data) !== crc) throw new Error(`${name}: CRC-32 does not match`);
    const modified = new Date(
      (date >> 9) + 1980,
      ((date >> 5) & 0xf) - 1,
      date & 0x1f,
      time >> 11,
      (time >> 5) & 0x3f,
      (time & 0x1f) * 2,
    );
    entries.push({ name, data, modified });
  }
  return entries;
}
