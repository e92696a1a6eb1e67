import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cutCodedPicture } from '../../../tests/support/heic-cut.ts';
import { fixture } from '../../../tests/support/media.ts';
import { addSpeaker, errorOf, postSpeakerForm } from '../../../tests/support/speakers.ts';
import { type TestDatabase, testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { errorResponseSchema } from '../../shared/errors.ts';
import { type Memory, memoryPostResponseSchema } from '../../shared/schemas/memory.ts';
import { decodeHeicInWorker } from './heic.ts';

/**
 * Photos as phones send them (decisions 147-151): the colour the phone showed, the picture it
 * marked, truthful refusals, transparency, and a full-resolution master without metadata. Run on
 * each database and on both media stores.
 */
const setups: { database: TestDatabase; media: 'disk' | 's3' }[] = [
  ...testDatabases.map((database) => ({ database, media: 'disk' as const })),
  { database: 'sqlite', media: 's3' },
];

interface Upload {
  name: string;
  data: Buffer;
}

function form(files: Upload[]): FormData {
  const body = new FormData();
  body.append('caption', 'As the phone took it');
  body.append('username', 'ada');
  for (const file of files) body.append('files', new Blob([new Uint8Array(file.data)]), file.name);
  return body;
}

/** The pixel at (x, y) of an image's bytes, as sRGB(A) numbers. */
async function pixelAt(data: Buffer, x: number, y: number): Promise<number[]> {
  const { data: pixels, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [...pixels.subarray(offset, offset + info.channels)];
}

/** A JPEG whose header claims 16384 × 12288 (201 megapixels); its data is a 16-pixel image. */
async function jpegClaiming201Megapixels(): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } })
    .jpeg()
    .toBuffer();
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  jpeg.writeUInt16BE(12288, sof + 5);
  jpeg.writeUInt16BE(16384, sof + 7);
  return jpeg;
}

const distance = (a: number[], b: number[]) =>
  Math.max(...[0, 1, 2].map((i) => Math.abs((a[i] ?? 0) - (b[i] ?? 0))));

describe.each(setups)('photos as phones send them ($database, $media store)', (setup) => {
  const t = useTestApp(setup);

  const post = (files: Upload[]) =>
    fetch(`${t.url}/api/memories`, { method: 'POST', body: form(files) });

  async function postOne(name: string, data: Buffer): Promise<Memory> {
    const response = await post([{ name, data }]);
    const body: unknown = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(201);
    const [memory] = memoryPostResponseSchema.parse(body).memories;
    if (!memory) throw new Error('no memory');
    return memory;
  }

  async function bytes(url: string): Promise<{ data: Buffer; type: string | null }> {
    const response = await fetch(`${t.url}${url}`);
    expect(response.status, url).toBe(200);
    return {
      data: Buffer.from(await response.arrayBuffer()),
      type: response.headers.get('content-type'),
    };
  }

  async function refused(name: string, data: Buffer): Promise<{ status: number; error: string }> {
    const before = await t.storedMediaKeys();
    const response = await post([{ name, data }]);
    const { error } = errorResponseSchema.parse(await response.json());
    expect(await t.storedMediaKeys()).toEqual(before);
    expect(await fs.readdir(path.join(t.dataDir, 'uploads'))).toEqual([]);
    return { status: response.status, error };
  }

  it('shows a Display P3 photo (HEIC and JPEG) in the colours the phone showed, as sRGB', async () => {
    // P3 (220, 40, 40) is a red more saturated than sRGB can name with the same numbers.
    const expected = await pixelAt(await fixture('p3.png'), 4, 4);
    expect(distance(expected, [220, 40, 40])).toBeGreaterThan(12);
    for (const name of ['p3.heic', 'p3.jpg']) {
      const memory = await postOne(name, await fixture(name));
      for (const url of [memory.media, memory.original, memory.thumbnail ?? '']) {
        const { data } = await bytes(url);
        const meta = await sharp(data).metadata();
        // Converted, not tagged: no profile travels, and the numbers are sRGB's.
        expect(meta.icc, `${name} ${url}`).toBeUndefined();
        expect(meta.exif, `${name} ${url}`).toBeUndefined();
        const red = await pixelAt(data, 2, 2);
        expect(distance(red, expected), `${name} ${url}: ${red.join()}`).toBeLessThanOrEqual(6);
        expect(distance(red, [220, 40, 40]), `${name} ${url}`).toBeGreaterThan(10);
      }
    }
  });

  it('takes the primary picture of a multi-image HEIC and of an image sequence', async () => {
    for (const name of ['primary-second.heic', 'sequence.heic']) {
      const memory = await postOne(name, await fixture(name));
      // The first image stored is a 96 × 64 blue one; the primary is 64 × 96 and yellow.
      expect([memory.width, memory.height], name).toEqual([64, 96]);
      expect(memory.contentType).toBe('image/jpeg');
      const [r = 0, g = 0, b = 0] = await pixelAt((await bytes(memory.media)).data, 10, 10);
      expect(r > 200 && g > 200 && b < 60, `${name}: ${[r, g, b].join()}`).toBe(true);
    }
  });

  it('refuses a truncated HEIC with a 400 naming it, keeping nothing', async () => {
    const { status, error } = await refused('IMG_0042.HEIC', await fixture('truncated.heic'));
    expect(status).toBe(400);
    expect(error).toBe('IMG_0042.HEIC could not be read: the image is damaged or incomplete.');
  });

  it('refuses a HEIC whose boxes are whole but whose coded picture is cut short', async () => {
    // The slice keeps 100 of its 207 bytes, and every size in the file says so: libheif reads
    // the file, and its decoder makes stripes of what is missing unless the picture is checked.
    const cut = cutCodedPicture(await fixture('photo.heic'), 100);
    const { status, error } = await refused('IMG_0043.HEIC', cut);
    expect(status).toBe(400);
    expect(error).toBe('IMG_0043.HEIC could not be read: the image is damaged or incomplete.');
  });

  it('refuses a picture over the pixel cap with a message naming the cap', async () => {
    for (const [name, data] of [
      ['huge.heic', await fixture('huge-header.heic')],
      ['huge.jpg', await jpegClaiming201Megapixels()],
    ] as const) {
      const { status, error } = await refused(name, data);
      expect(status, name).toBe(400);
      expect(error).toBe(
        `${name} is too large (16384×12288, 201 megapixels): pictures of up to 100 megapixels are accepted.`,
      );
    }
  });

  it('keeps the transparency of HEIF, AVIF and WebP as of PNG', async () => {
    const half = Buffer.alloc(64 * 48 * 4);
    for (let i = 0; i < 64 * 48; i += 1) {
      half.writeUInt32BE(i % 64 < 32 ? 0xff0000ff : 0xff000000, i * 4);
    }
    const raw = { raw: { width: 64, height: 48, channels: 4 as const } };
    const files = {
      'alpha.heic': await fixture('alpha.heic'),
      'alpha.avif': await sharp(half, raw).avif().toBuffer(),
      'alpha.webp': await sharp(half, raw).webp().toBuffer(),
      'alpha.png': await sharp(half, raw).png().toBuffer(),
    };
    for (const [name, data] of Object.entries(files)) {
      const memory = await postOne(name, data);
      for (const url of [memory.media, memory.original, memory.thumbnail ?? '']) {
        const { data: served } = await bytes(url);
        expect((await sharp(served).metadata()).hasAlpha, `${name} ${url}`).toBe(true);
        const { width } = await sharp(served).metadata();
        const [, , , opaque] = await pixelAt(served, 2, 2);
        const [, , , clear] = await pixelAt(served, width - 3, 2);
        expect([opaque, clear], `${name} ${url}`).toEqual([255, 0]);
      }
    }
  });

  it('takes AVIF: shown as JPEG, colour-managed', async () => {
    const memory = await postOne('p3.avif', await fixture('p3.avif'));
    expect(memory.contentType).toBe('image/jpeg');
    expect([memory.width, memory.height]).toEqual([64, 48]);
    const expected = await pixelAt(await fixture('p3.png'), 4, 4);
    const red = await pixelAt((await bytes(memory.media)).data, 2, 2);
    expect(distance(red, expected), red.join()).toBeLessThanOrEqual(8);
  });

  it('keeps a full-resolution master: upright, without metadata, what Download serves', async () => {
    // 3000 × 1500 stored sideways (rotate 90° CW), with a GPS position and a camera make.
    const photo = await sharp({
      create: { width: 3000, height: 1500, channels: 3, background: '#2f9e44' },
    })
      .composite([
        {
          input: { create: { width: 1500, height: 1500, channels: 3, background: '#e03131' } },
          left: 0,
          top: 0,
        },
      ])
      .jpeg({ quality: 90 })
      .withExif({
        IFD0: { Make: 'TestCam', Model: 'Fixture' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 30/1' },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(photo.includes(Buffer.from('TestCam'))).toBe(true);
    expect((await sharp(photo).metadata()).orientation).toBe(6);
    const memory = await postOne('big.jpg', photo);
    expect([memory.width, memory.height]).toEqual([1024, 2048]);
    expect(memory.original).not.toBe(memory.media);

    const master = await bytes(`${memory.original}?download=1`);
    expect(master.type).toBe('image/jpeg');
    const meta = await sharp(master.data).metadata();
    expect([meta.width, meta.height]).toEqual([1500, 3000]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation ?? 1).toBe(1);
    expect(master.data.includes(Buffer.from('TestCam'))).toBe(false);
    // Upright: the red half (left in the file) is on top.
    const [topRed = 0] = await pixelAt(master.data, 750, 300);
    const [bottomRed = 0] = await pixelAt(master.data, 750, 2700);
    expect(topRed).toBeGreaterThan(200);
    expect(bottomRed).toBeLessThan(100);

    // Every file of the memory is in the store; deleting the memory removes them all.
    const keys = [memory.media, memory.thumbnail ?? '', memory.original].map((url) =>
      url.replace('/media/', ''),
    );
    const stored = await t.storedMediaKeys('memories/');
    for (const key of keys) expect(stored).toContain(key);
    const { deleteMemory } = await import('../memories/memory.service.ts');
    expect(await deleteMemory(t.app.deps, memory._id)).toBe(true);
    const after = await t.storedMediaKeys('memories/');
    for (const key of keys) expect(after).not.toContain(key);
  });

  it('answers a sequence of the supported formats that is the truth, for speakers too', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
    );
    const memory = await refused('logo.svg', svg);
    expect(memory.status).toBe(415);
    expect(memory.error).toMatch(/Supported formats: JPG, PNG, WebP, GIF, HEIC, HEIF, AVIF, MP4/);
    const speaker = await postSpeakerForm(t.url, {
      name: 'Svg Speaker',
      stack: 's',
      bio: 'b',
      picture: { data: svg, filename: 'me.svg', type: 'image/svg+xml' },
    });
    expect(speaker.status).toBe(415);
    expect(await errorOf(speaker)).toBe(
      'The picture must be an image. Supported formats: JPG, PNG, WebP, GIF, HEIC, HEIF, AVIF.',
    );
    const config = (await (await fetch(`${t.url}/api/config`)).json()) as {
      acceptedTypes: { images: string[] };
    };
    expect(config.acceptedTypes.images).toContain('image/avif');
  });

  it("takes a speaker's iPhone picture (P3 HEIC) and refuses a truncated one with a 400", async () => {
    const speaker = await addSpeaker(t.url, 'Heic Speaker', {
      stack: 'iOS',
      bio: 'Shot on iPhone',
      picture: { data: await fixture('p3.heic'), filename: 'IMG_0001.HEIC', type: '' },
    });
    const expected = await pixelAt(await fixture('p3.png'), 4, 4);
    const red = await pixelAt((await bytes(speaker.picture)).data, 2, 2);
    expect(distance(red, expected), red.join()).toBeLessThanOrEqual(6);

    const cut = await postSpeakerForm(t.url, {
      name: 'Cut Speaker',
      stack: 'iOS',
      bio: 'b',
      picture: { data: await fixture('truncated.heic'), filename: 'cut.heic', type: '' },
    });
    expect(cut.status).toBe(400);
    expect(await errorOf(cut)).toBe(
      'The picture could not be read: the image is damaged or incomplete.',
    );
  });
});

describe('the HEIF decoder', () => {
  it('writes nothing to the process output, whatever the file', async () => {
    const written: string[] = [];
    const said: string[][] = [];
    const write = process.stdout.write.bind(process.stdout);
    const writeErr = process.stderr.write.bind(process.stderr);
    process.stdout.write = (chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    };
    process.stderr.write = (chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    };
    try {
      for (const name of ['truncated.heic', 'huge-header.heic', 'p3.heic']) {
        await decodeHeicInWorker(await fixture(name), (lines) => said.push(lines)).catch(
          () => undefined,
        );
      }
      // Not a HEIF file at all: the decoder complains, into the log callback.
      await decodeHeicInWorker(Buffer.from('....ftypheic not really'), (lines) =>
        said.push(lines),
      ).catch(() => undefined);
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeErr;
    }
    expect(written).toEqual([]);
  });
});
