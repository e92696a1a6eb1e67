import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../tests/support/media.ts';
import {
  LOCATION_AND_DEVICE,
  TAGS_ID,
  VOID_ID,
  changedRanges,
  contains,
  listBoxes,
  listSegmentElements,
} from '../../../tests/support/video-structure.ts';
import { MalformedVideoError, stripVideoMetadata } from './video-metadata.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-video-metadata-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

let files = 0;
/** Writes `data` to a fresh file, strips it, and answers what it became. */
async function strip(data: Buffer) {
  const file = path.join(dir, `${files++}.bin`);
  await fs.writeFile(file, data);
  const blanked = await stripVideoMetadata(file);
  return { blanked, after: await fs.readFile(file) };
}

/** Strips a file that must be refused: answers the error, after checking the file is untouched. */
async function refused(data: Buffer): Promise<unknown> {
  const file = path.join(dir, `${files++}.bin`);
  await fs.writeFile(file, data);
  const error = await stripVideoMetadata(file).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect((await fs.readFile(file)).equals(data)).toBe(true);
  await fs.rm(file);
  return error;
}

/** An ISO BMFF box: 32-bit size, or 64-bit with `large`. */
function box(type: string, payload: Buffer | Buffer[] = [], large = false): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.concat(payload);
  const header = Buffer.alloc(large ? 16 : 8);
  header.write(type, 4, 'latin1');
  if (large) {
    header.writeUInt32BE(1, 0);
    header.writeBigUInt64BE(BigInt(16 + body.length), 8);
  } else {
    header.writeUInt32BE(8 + body.length, 0);
  }
  return Buffer.concat([header, body]);
}

const uuidBox = (userType: string, payload: string) =>
  box('uuid', [Buffer.from(userType, 'hex'), Buffer.from(payload, 'latin1')]);
const XMP_UUID = 'be7acfcb97a942e89c71999491e3afac';
const OTHER_UUID = 'ffcc8263f8554a938814587a02521fdd';

/** A `meta` box as ISO writes it: version and flags, a handler, then the items. */
const metaBox = (items: string) =>
  box('meta', [
    Buffer.alloc(4),
    box('hdlr', Buffer.alloc(24)),
    box('ilst', Buffer.from(items, 'latin1')),
  ]);

const isZero = (data: Buffer) => data.every((byte) => byte === 0);

describe('stripVideoMetadata on MP4 and QuickTime', () => {
  it.each([
    ['gps-iphone.mov', ['moov/udta', 'moov/meta']],
    ['gps-android.mp4', ['moov/udta', 'uuid']],
  ])('blanks every metadata box of %s, in place', async (name, blankedPaths) => {
    const before = await fixture(name);
    const boxesBefore = listBoxes(before);
    // The fixture carries a location, as a phone writes it.
    expect(contains(before, '+48.8584+002.2945')).toBe(true);

    const { blanked, after } = await strip(before);

    expect(after.length).toBe(before.length);
    const byOffset = new Map(boxesBefore.map((b) => [b.offset, b]));
    expect(blanked.map((range) => byOffset.get(range.offset)?.path)).toEqual(blankedPaths);
    for (const needle of LOCATION_AND_DEVICE) expect(contains(after, needle), needle).toBe(false);

    // Each blanked box is a `free` box of the same size, its payload zeroed.
    for (const range of blanked) {
      expect(after.readUInt32BE(range.offset)).toBe(range.length);
      expect(after.toString('latin1', range.offset + 4, range.offset + 8)).toBe('free');
      expect(isZero(after.subarray(range.offset + 8, range.offset + range.length))).toBe(true);
    }
    // Nothing else moved or changed: the changes lie inside the blanked boxes.
    for (const [start, end] of changedRanges(before, after)) {
      expect(
        blanked.some((range) => start >= range.offset && end <= range.offset + range.length),
      ).toBe(true);
    }

    // The tree is the same but for the blanked boxes; no metadata box is left anywhere.
    const boxesAfter = listBoxes(after);
    expect(boxesAfter.some((b) => b.type === 'udta' || b.type === 'meta')).toBe(false);
    expect(boxesAfter.some((b) => b.type === 'uuid')).toBe(false);
    const kept = (boxes: typeof boxesBefore) =>
      boxes.filter(
        (b) => !blanked.some((r) => b.offset >= r.offset && b.offset < r.offset + r.length),
      );
    expect(kept(boxesAfter)).toEqual(kept(boxesBefore));
    // The media and their index are byte for byte what they were.
    for (const type of ['mvhd', 'tkhd', 'stco', 'stsz', 'stsd', 'mdat']) {
      const found = boxesBefore.find((b) => b.type === type);
      if (!found) throw new Error(`${name} has no ${type}`);
      const end = found.offset + found.size;
      expect(after.subarray(found.offset, end).equals(before.subarray(found.offset, end))).toBe(
        true,
      );
    }

    // A second pass finds nothing left to blank.
    const again = await strip(after);
    expect(again.blanked).toEqual([]);
    expect(again.after.equals(after)).toBe(true);
  });

  it('blanks udta, meta and XMP wherever they sit, keeping 64-bit sizes and other boxes', async () => {
    const stco = box('stco', Buffer.from('00000000000000010000ffff', 'hex'));
    const file = Buffer.concat([
      box('ftyp', Buffer.from('isom\0\0\x02\0isom', 'latin1')),
      uuidBox(OTHER_UUID, 'camera maker notes'),
      box('moov', [
        box('mvhd', Buffer.alloc(100, 1)),
        box('trak', [
          box('tkhd', Buffer.alloc(84, 2)),
          metaBox('track location +48.8584'),
          uuidBox(OTHER_UUID, 'spherical video, kept'),
          uuidBox(XMP_UUID, '<x:xmpmeta>GPSLatitude</x:xmpmeta>'),
          box('mdia', [
            box('mdhd', Buffer.alloc(24, 3)),
            metaBox('media meta'),
            box('minf', [box('stbl', [stco])]),
          ]),
        ]),
        box('udta', [box('\u00a9xyz', Buffer.from('+48.8584+002.2945/', 'latin1'))], true),
        uuidBox(OTHER_UUID, 'any uuid in moov'),
      ]),
      metaBox('file-level meta'),
      // Size 0: the last box runs to the end of the file.
      Buffer.concat([Buffer.from('00000000', 'hex'), Buffer.from('mdat media bytes', 'latin1')]),
    ]);
    const { blanked, after } = await strip(file);
    expect(after.length).toBe(file.length);
    const paths = new Map(listBoxes(file).map((b) => [b.offset, b.path]));
    expect(blanked.map((range) => paths.get(range.offset))).toEqual([
      'uuid',
      'moov/trak/meta',
      'moov/trak/uuid',
      'moov/trak/mdia/meta',
      'moov/udta',
      'moov/uuid',
      'meta',
    ]);
    expect(contains(after, 'spherical video, kept')).toBe(true);
    expect(contains(after, 'mdat media bytes')).toBe(true);
    for (const needle of ['+48.8584', 'GPSLatitude', 'camera maker', 'media meta', 'file-level']) {
      expect(contains(after, needle), needle).toBe(false);
    }
    // The 64-bit size of the udta box stays: same header, type `free`.
    const udta = blanked.find((range) => range.what === 'udta');
    if (!udta) throw new Error('udta was not blanked');
    expect(after.readUInt32BE(udta.offset)).toBe(1);
    expect(after.toString('latin1', udta.offset + 4, udta.offset + 8)).toBe('free');
    expect(after.readBigUInt64BE(udta.offset + 8)).toBe(BigInt(udta.length));
    expect(isZero(after.subarray(udta.offset + 16, udta.offset + udta.length))).toBe(true);
    expect(after.includes(stco)).toBe(true);
  });

  it('leaves a file without metadata as it is', async () => {
    const clean = Buffer.concat([
      box('ftyp', Buffer.from('isom', 'latin1')),
      box('moov'),
      box('mdat'),
    ]);
    const { blanked, after } = await strip(clean);
    expect(blanked).toEqual([]);
    expect(after.equals(clean)).toBe(true);
  });

  it('refuses a damaged or incomplete file with a MalformedVideoError, leaving it untouched', async () => {
    const mov = await fixture('gps-iphone.mov');
    const mdat = listBoxes(mov).find((b) => b.type === 'mdat');
    if (!mdat) throw new Error('no mdat');
    const tooSmall = Buffer.from(mov);
    tooSmall.writeUInt32BE(4, 20); // the moov box says it is 4 bytes long
    const pastTheEnd = Buffer.from(mov);
    pastTheEnd.writeUInt32BE(mdat.size + 1, mdat.offset);
    const largeTooSmall = Buffer.concat([box('ftyp'), box('moov'), box('free', [], true)]);
    largeTooSmall.writeBigUInt64BE(8n, largeTooSmall.length - 8);
    const hugeLarge = Buffer.concat([box('moov'), box('mdat', [], true)]);
    hugeLarge.writeBigUInt64BE(2n ** 63n, hugeLarge.length - 8);
    const cases: [string, Buffer][] = [
      ['cut in half', mov.subarray(0, Math.floor(mov.length / 2))],
      ['cut inside the moov box', mov.subarray(0, 100)],
      ['cut one byte short', mov.subarray(0, mov.length - 1)],
      ['a box smaller than its header', tooSmall],
      ['a box running past the end', pastTheEnd],
      ['a 64-bit size smaller than its header', largeTooSmall],
      ['a 64-bit size beyond any file', hugeLarge],
      ['stray bytes at the end', Buffer.concat([mov, Buffer.from('abc')])],
      ['no moov box', Buffer.concat([box('ftyp'), box('mdat', Buffer.alloc(32))])],
      [
        'a uuid box without its user type',
        Buffer.concat([box('moov'), box('uuid', Buffer.alloc(4))]),
      ],
      ['garbage', Buffer.from('this is not a video, only some text pretending to be one')],
      ['nothing', Buffer.alloc(0)],
    ];
    for (const [label, data] of cases) {
      expect(await refused(data), label).toBeInstanceOf(MalformedVideoError);
    }
  });
});

describe('stripVideoMetadata on WebM', () => {
  it('turns Tags and the title into Void elements of the same length', async () => {
    const before = await fixture('gps-tags.webm');
    expect(contains(before, '+48.8584+002.2945')).toBe(true);
    const { blanked, after } = await strip(before);

    expect(after.length).toBe(before.length);
    expect(blanked.map((range) => range.what)).toEqual(['Seek Tags', 'Title', 'Tags']);
    for (const needle of LOCATION_AND_DEVICE) expect(contains(after, needle), needle).toBe(false);
    for (const [start, end] of changedRanges(before, after)) {
      expect(
        blanked.some((range) => start >= range.offset && end <= range.offset + range.length),
      ).toBe(true);
    }
    const segmentBefore = listSegmentElements(before);
    const segmentAfter = listSegmentElements(after);
    expect(segmentBefore.some((e) => e.id === TAGS_ID)).toBe(true);
    expect(segmentAfter.some((e) => e.id === TAGS_ID)).toBe(false);
    // The same elements at the same places, Tags now a Void of its length with zeroes inside.
    expect(segmentAfter.map((e) => [e.offset, e.length])).toEqual(
      segmentBefore.map((e) => [e.offset, e.length]),
    );
    const tags = segmentAfter.find((e) => e.offset === blanked[2]?.offset);
    expect(tags?.id).toBe(VOID_ID);
    if (!tags?.length) throw new Error('no Void');
    expect(isZero(after.subarray(tags.offset + tags.headerLength, tags.offset + tags.length))).toBe(
      true,
    );
    // The clusters are untouched.
    const firstCluster = segmentBefore.find((e) => e.id === 0x1f43b675);
    if (!firstCluster) throw new Error('no cluster');
    expect(after.subarray(firstCluster.offset).equals(before.subarray(firstCluster.offset))).toBe(
      true,
    );

    const again = await strip(after);
    expect(again.blanked).toEqual([]);
  });

  it('finds Tags after clusters of unknown size, as live recorders write them', async () => {
    const original = await fixture('gps-tags.webm');
    const elements = listSegmentElements(original);
    const [, segment] = elements;
    const cluster = elements.find((e) => e.id === 0x1f43b675);
    const tags = elements.find((e) => e.id === TAGS_ID);
    if (!segment || !cluster || !tags?.length) throw new Error('unexpected fixture');
    const live = Buffer.concat([
      original,
      original.subarray(tags.offset, tags.offset + tags.length),
    ]);
    // The segment's and the cluster's sizes become "unknown" (all ones), in the same widths.
    for (const element of [segment, cluster]) {
      // Both IDs take 4 bytes; the size field follows.
      const sizeLength = element.headerLength - 4;
      const at = element.offset + 4;
      live[at] = 0xff >> (sizeLength - 1);
      live.fill(0xff, at + 1, at + sizeLength);
    }
    const { blanked, after } = await strip(live);
    expect(blanked.map((range) => range.what)).toEqual(['Seek Tags', 'Title', 'Tags', 'Tags']);
    expect(blanked.at(-1)?.offset).toBe(original.length);
    expect(contains(after, '+48.8584')).toBe(false);
  });

  it('refuses a damaged or incomplete WebM, leaving it untouched', async () => {
    const webm = await fixture('gps-tags.webm');
    const header = listSegmentElements(webm)[0]?.length ?? 0;
    const cases: [string, Buffer][] = [
      ['cut in half', webm.subarray(0, Math.floor(webm.length / 2))],
      ['cut inside the EBML header', webm.subarray(0, 10)],
      ['garbage after the magic', Buffer.concat([webm.subarray(0, 4), Buffer.alloc(40)])],
      ['no segment', webm.subarray(0, header)],
      ['cut inside the segment header', webm.subarray(0, header + 6)],
    ];
    for (const [label, data] of cases) {
      expect(await refused(data), label).toBeInstanceOf(MalformedVideoError);
    }
  });
});

describe('stripVideoMetadata on any bytes', () => {
  it('never changes a file’s length, and fails only with MalformedVideoError', async () => {
    const seeds = await Promise.all(
      ['gps-iphone.mov', 'gps-android.mp4', 'gps-tags.webm'].map((name) => fixture(name)),
    );
    const mutated = fc
      .record({
        seed: fc.constantFrom(...seeds),
        writes: fc.array(fc.record({ at: fc.nat(), bytes: fc.uint8Array({ maxLength: 8 }) }), {
          maxLength: 6,
        }),
        cut: fc.option(fc.nat(), { nil: undefined }),
      })
      .map(({ seed, writes, cut }) => {
        const data = Buffer.from(seed);
        for (const { at, bytes } of writes)
          data.set(bytes.subarray(0, data.length - (at % data.length)), at % data.length);
        return cut === undefined ? data : data.subarray(0, cut % (data.length + 1));
      });
    const random = fc
      .tuple(
        fc.constantFrom(Buffer.alloc(0), Buffer.from('1a45dfa3', 'hex'), box('ftyp')),
        fc.uint8Array({ maxLength: 300 }),
      )
      .map(([head, tail]) => Buffer.concat([head, tail]));
    await fc.assert(
      fc.asyncProperty(fc.oneof(mutated, random), async (data) => {
        const file = path.join(dir, `${files++}.bin`);
        await fs.writeFile(file, data);
        try {
          await stripVideoMetadata(file);
        } catch (error) {
          expect(error).toBeInstanceOf(MalformedVideoError);
          expect((await fs.readFile(file)).equals(data)).toBe(true);
        }
        expect((await fs.stat(file)).size).toBe(data.length);
        await fs.rm(file);
      }),
      { numRuns: 300, seed: 95 },
    );
  });
});
