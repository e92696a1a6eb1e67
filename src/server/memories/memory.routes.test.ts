import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { fixture, noisyImage } from '../../../tests/support/media.ts';
import { rawGet } from '../../../tests/support/raw-http.ts';
import {
  type Memory,
  type RefusedFile,
  memoryListSchema,
  memoryPostResponseSchema,
  memorySchema,
} from '../../shared/schemas/memory.ts';
import { collect, errorOf } from '../../../tests/support/speakers.ts';
import {
  type TestApp,
  type TestDatabase,
  startTestApp,
  testDatabases,
  useTestApp,
  useWatchingSockets,
} from '../../../tests/support/test-app.ts';
import {
  LOCATION_AND_DEVICE,
  TAGS_ID,
  changedRanges,
  contains,
  listBoxes,
  listSegmentElements,
} from '../../../tests/support/video-structure.ts';
import { deleteMemory } from './memory.service.ts';

/**
 * Checks that `served` is `sent` but for its metadata: every changed byte lies in a box (MP4,
 * QuickTime) or element (WebM) that holds metadata in what was sent.
 */
function expectOnlyMetadataChanged(sent: Buffer, served: Buffer): void {
  const metadata =
    sent.readUInt32BE(0) === 0x1a45dfa3
      ? listSegmentElements(sent)
          .filter((e) => [TAGS_ID, 0x1549a966, 0x114d9b74].includes(e.id))
          .map((e) => ({ offset: e.offset, size: e.length ?? 0 }))
      : listBoxes(sent).filter((box) => ['udta', 'meta', 'uuid'].includes(box.type));
  const ranges = changedRanges(sent, served);
  expect(ranges.length).toBeGreaterThan(0);
  for (const [start, end] of ranges) {
    expect(metadata.some((box) => start >= box.offset && end <= box.offset + box.size)).toBe(true);
  }
}

/** Real images made in the test: a flat colour of the given size. */
async function makeImage(
  format: 'jpeg' | 'png' | 'webp',
  width = 64,
  height = 48,
  background = '#4c6ef5',
): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background } });
  return image.toFormat(format).toBuffer();
}

/** An animated GIF of three frames. */
async function makeAnimatedGif(): Promise<Buffer> {
  const frames = await Promise.all(
    ['#e03131', '#2f9e44', '#1971c2'].map((background) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background } })
        .raw()
        .toBuffer(),
    ),
  );
  return sharp(Buffer.concat(frames), {
    raw: { width: 40, height: 90, channels: 3, pageHeight: 30 },
  })
    .gif({ delay: [100, 100, 100] })
    .toBuffer();
}

interface UploadFile {
  name: string;
  data: Buffer;
  type?: string;
  field?: string;
}

function form(fields: Record<string, string>, files: UploadFile[]): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  for (const file of files) {
    body.append(
      file.field ?? 'files',
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  }
  return body;
}

const defaults = { caption: 'Keynote selfie', username: 'ada' };

async function post(t: TestApp, files: UploadFile[], fields: Record<string, string> = defaults) {
  return fetch(`${t.url}/api/memories`, { method: 'POST', body: form(fields, files) });
}

async function postOk(t: TestApp, files: UploadFile[], fields = defaults): Promise<Memory[]> {
  const response = await post(t, files, fields);
  const body: unknown = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  return memoryPostResponseSchema.parse(body).memories;
}

async function bytesOf(t: TestApp, url: string): Promise<{ response: Response; data: Buffer }> {
  const response = await fetch(`${t.url}${url}`);
  return { response, data: Buffer.from(await response.arrayBuffer()) };
}

/** Every stored media file, whichever store the app uses. */
const storedFiles = (t: TestApp): Promise<string[]> => t.storedMediaKeys();

async function leftovers(t: TestApp): Promise<{ rows: number; files: string[] }> {
  // At rest: the renditions of videos posted earlier are made and stored.
  await t.app.deps.renditions.idle();
  const { count } = await t.app.deps.db
    .selectFrom('memories')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  const staged = await fs.readdir(path.join(t.dataDir, 'uploads'));
  return { rows: count, files: [...(await storedFiles(t)), ...staged] };
}

/**
 * Posts `files`, of which the last is bad: the answer is a 201 with the others stored and the
 * bad one named in `refused` (decision 144). Deletes what was stored, so the test leaves nothing.
 */
async function expectPartOfPostKept(t: TestApp, files: UploadFile[], refused: RefusedFile) {
  const response = await post(t, files);
  const body: unknown = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  const answer = memoryPostResponseSchema.parse(body);
  expect(answer.memories).toHaveLength(files.length - 1);
  expect(answer.refused).toEqual([refused]);
  expect(answer.message).toContain(refused.error);
  for (const memory of answer.memories) {
    const served = await fetch(`${t.url}${memory.media}`);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
    expect(await deleteMemory(t.app.deps, memory._id)).toBe(true);
  }
}

describe.each(testDatabases)('memories API on %s', (database: TestDatabase) => {
  const t = useTestApp({ database, env: { EVENT_NAME: 'DevFest' } });
  const watch = useWatchingSockets(t);

  describe('POST /api/memories', () => {
    it('makes one memory per file, sharing caption, username and post id, in order', async () => {
      const [first, second] = [await makeImage('png'), await makeImage('jpeg', 80, 60, '#fab005')];
      const response = await post(
        t,
        [
          { name: 'one.png', data: first, type: 'image/png' },
          { name: 'two.jpg', data: second, type: 'image/jpeg' },
        ],
        { caption: '  Day one!  ', username: 'grace' },
      );
      expect(response.status).toBe(201);
      const body = memoryPostResponseSchema.parse(await response.json());
      expect(body.message).toBe('2 memories shared successfully!');
      expect(body.memories).toHaveLength(2);
      const [a, b] = body.memories as [Memory, Memory];
      expect(a.postId).toBe(b.postId);
      expect([a.text, b.text]).toEqual(['Day one!', 'Day one!']);
      expect([a.username, b.username]).toEqual(['grace', 'grace']);
      expect([a.contentType, b.contentType]).toEqual(['image/png', 'image/jpeg']);
      expect([a.width, a.height, b.width, b.height]).toEqual([64, 48, 80, 60]);
      expect(a.media).toMatch(/^\/media\/memories\/[0-9a-f-]+\.png$/);
      expect(a.thumbnail).toMatch(/^\/media\/memories\/[0-9a-f-]+-thumb\.webp$/);

      // The gallery lists them newest first, the post's first file first.
      const list = memoryListSchema.parse(await (await fetch(`${t.url}/api/memory`)).json());
      expect(list.slice(0, 2).map((m) => m._id)).toEqual([a._id, b._id]);

      const media = await bytesOf(t, a.media);
      expect(media.response.headers.get('content-type')).toBe('image/png');
      expect((await sharp(media.data).metadata()).format).toBe('png');
      const thumb = await bytesOf(t, a.thumbnail ?? '');
      expect(thumb.response.headers.get('content-type')).toBe('image/webp');
      expect((await sharp(thumb.data).metadata()).format).toBe('webp');
    });

    it('applies EXIF orientation and strips EXIF and GPS from every rendition', async () => {
      const original = await fixture('exif-gps-rotated.jpg');
      expect((await sharp(original).metadata()).orientation).toBe(6);
      expect(original.includes(Buffer.from('TestCam'))).toBe(true);

      const [memory] = (await postOk(t, [{ name: 'gps.jpg', data: original }])) as [Memory];
      // 320x160 stored sideways with "rotate 90° CW": shown upright it is 160 wide, 320 high.
      expect([memory.width, memory.height]).toEqual([160, 320]);
      for (const url of [memory.media, memory.thumbnail ?? '']) {
        const { data } = await bytesOf(t, url);
        const meta = await sharp(data).metadata();
        expect(meta.exif, url).toBeUndefined();
        expect(meta.orientation ?? 1, url).toBe(1);
        expect(data.includes(Buffer.from('TestCam')), url).toBe(false);
        expect(data.includes(Buffer.from('GPS')), url).toBe(false);
      }
      // The red half (left in the file) is on top once upright.
      const { data } = await bytesOf(t, memory.media);
      const { data: pixels, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => {
        const offset = (y * info.width + x) * info.channels;
        return [pixels[offset] ?? 0, pixels[offset + 1] ?? 0, pixels[offset + 2] ?? 0];
      };
      const [topRed = 0, , topBlue = 0] = at(80, 40);
      const [bottomRed = 0, , bottomBlue = 0] = at(80, 280);
      expect(topRed).toBeGreaterThan(topBlue);
      expect(bottomBlue).toBeGreaterThan(bottomRed);
    });

    it('makes a display rendition of at most 2048 px and a thumbnail of about 480 px', async () => {
      const big = await makeImage('jpeg', 3000, 2000);
      const [memory] = (await postOk(t, [{ name: 'big.jpg', data: big }])) as [Memory];
      expect([memory.width, memory.height]).toEqual([2048, 1365]);
      const display = await sharp((await bytesOf(t, memory.media)).data).metadata();
      expect([display.width, display.height, display.format]).toEqual([2048, 1365, 'jpeg']);
      const thumb = await sharp((await bytesOf(t, memory.thumbnail ?? '')).data).metadata();
      expect([thumb.width, thumb.height, thumb.format]).toEqual([480, 320, 'webp']);
    });

    it('accepts WebP and keeps an animated GIF animated, with its first frame as thumbnail', async () => {
      const [webp, gif] = (await postOk(t, [
        { name: 'a.webp', data: await makeImage('webp') },
        { name: 'b.gif', data: await makeAnimatedGif() },
      ])) as [Memory, Memory];
      expect(webp.contentType).toBe('image/webp');
      expect(gif.contentType).toBe('image/gif');
      expect([gif.width, gif.height]).toEqual([40, 30]);
      const display = await sharp((await bytesOf(t, gif.media)).data, {
        animated: true,
      }).metadata();
      expect(display.format).toBe('gif');
      expect(display.pages).toBe(3);
      const thumb = await sharp((await bytesOf(t, gif.thumbnail ?? '')).data, {
        animated: true,
      }).metadata();
      // The gallery's tiles are still (decision 129): the display rendition animates.
      expect(thumb.pages ?? 1).toBe(1);
    });

    it('converts HEIC (HEVC, as an iPhone sends it) to JPEG', async () => {
      const [memory] = (await postOk(t, [
        { name: 'IMG_0001.HEIC', data: await fixture('photo.heic'), type: 'image/heic' },
      ])) as [Memory];
      expect(memory.contentType).toBe('image/jpeg');
      expect(memory.media).toMatch(/\.jpg$/);
      expect([memory.width, memory.height]).toEqual([256, 192]);
      const { response, data } = await bytesOf(t, memory.media);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 256, 192]);
      // The left quarter of the photo is orange, the rest green.
      const { data: pixels } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
      const [red = 0, green = 0] = [pixels[(96 * 256 + 20) * 3], pixels[(96 * 256 + 20) * 3 + 1]];
      expect(red).toBeGreaterThan(green);
    });

    it('stores videos with their metadata blanked, and serves them with ranges and download names', async () => {
      const mp4 = await fixture('clip.mp4');
      const [video, webm, mov] = (await postOk(t, [
        { name: 'clip.mp4', data: mp4 },
        { name: 'clip.webm', data: await fixture('clip.webm') },
        { name: 'clip.mov', data: await fixture('clip.mov') },
      ])) as [Memory, Memory, Memory];
      expect([video.contentType, webm.contentType, mov.contentType]).toEqual([
        'video/mp4',
        'video/webm',
        'video/quicktime',
      ]);
      // A poster and a tile picture at once; `media` is the file as sent (stripped) until the
      // playable rendition is ready (video-renditions.test.ts).
      expect(video.thumbnail).toMatch(/^\/media\/memories\/.+-thumb\.webp$/);
      expect(video.poster).toMatch(/^\/media\/memories\/.+-poster\.jpg$/);
      expect([video.width, video.height, video.processing]).toEqual([160, 120, true]);

      // The same bytes but for the muxer's metadata box (udta), now a `free` box of its size.
      const whole = await bytesOf(t, video.media);
      expect(whole.data.length).toBe(mp4.length);
      expectOnlyMetadataChanged(mp4, whole.data);
      expect(whole.response.headers.get('cache-control')).toBe(
        'public, max-age=31536000, immutable, s-maxage=0, proxy-revalidate',
      );
      expect(whole.response.headers.get('x-content-type-options')).toBe('nosniff');

      const partial = await fetch(`${t.url}${video.media}`, { headers: { range: 'bytes=0-99' } });
      expect(partial.status).toBe(206);
      expect(partial.headers.get('content-range')).toBe(`bytes 0-99/${mp4.length}`);
      expect(Buffer.from(await partial.arrayBuffer()).equals(whole.data.subarray(0, 100))).toBe(
        true,
      );

      const download = await fetch(`${t.url}${video.media}?download=1`);
      expect(download.headers.get('content-disposition')).toBe('attachment; filename="memory.mp4"');
      const webmDownload = await fetch(`${t.url}${webm.media}?download=1`);
      expect(webmDownload.headers.get('content-disposition')).toBe(
        'attachment; filename="memory.webm"',
      );
    });

    it('serves phone videos without their location, make and model, shown or downloaded', async () => {
      for (const name of ['gps-iphone.mov', 'gps-android.mp4', 'gps-tags.webm']) {
        const sent = await fixture(name);
        expect(contains(sent, '+48.8584+002.2945'), name).toBe(true);
        const [memory] = (await postOk(t, [{ name, data: sent }])) as [Memory];
        const shown = await bytesOf(t, memory.media);
        const downloaded = await bytesOf(t, `${memory.media}?download=1`);
        expect(downloaded.data.equals(shown.data), name).toBe(true);

        expect(shown.data.length, name).toBe(sent.length);
        for (const needle of LOCATION_AND_DEVICE) {
          expect(contains(shown.data, needle), `${name}: ${needle}`).toBe(false);
        }
        if (name.endsWith('.webm')) {
          expect(listSegmentElements(shown.data).some((e) => e.id === TAGS_ID)).toBe(false);
        } else {
          const types = listBoxes(shown.data).map((box) => box.type);
          expect(types, name).not.toContain('udta');
          expect(types, name).not.toContain('meta');
          expect(types, name).not.toContain('uuid');
        }
        expectOnlyMetadataChanged(sent, shown.data);
      }
    });

    it('refuses a truncated or damaged video with a 400 naming it, and keeps nothing', async () => {
      const before = await leftovers(t);
      for (const name of ['gps-iphone.mov', 'gps-tags.webm']) {
        const whole = await fixture(name);
        const half = `half.${name.split('.').pop() ?? ''}`;
        const message = `${half} could not be read: the video is damaged or incomplete.`;
        const broken = { name: half, data: whole.subarray(0, Math.floor(whole.length / 2)) };
        const alone = await post(t, [broken]);
        expect(alone.status, name).toBe(400);
        expect(await errorOf(alone)).toBe(message);
        // With a good image, the image is kept and the video named as refused (decision 144).
        await expectPartOfPostKept(
          t,
          [{ name: 'good.png', data: await makeImage('png') }, broken],
          {
            filename: half,
            error: message,
          },
        );
      }
      expect(await leftovers(t)).toEqual(before);
    });

    it('names PNG downloads memory.png', async () => {
      const [memory] = (await postOk(t, [{ name: 'a.png', data: await makeImage('png') }])) as [
        Memory,
      ];
      const response = await fetch(`${t.url}${memory.media}?download=1`);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="memory.png"');
    });

    it('refuses what is not an allowed image or video, naming the file, and keeps nothing', async () => {
      const before = await leftovers(t);
      const cases: UploadFile[] = [
        {
          name: 'cat.jpg',
          data: Buffer.from('<!doctype html><script>alert(1)</script>'),
          type: 'image/jpeg',
        },
        {
          name: 'logo.svg',
          data: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>',
          ),
          type: 'image/svg+xml',
        },
        { name: 'run.jpg', data: Buffer.from('#!/bin/sh\nrm -rf /\n'), type: 'image/jpeg' },
        { name: 'doc.pdf', data: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n') },
      ];
      for (const file of cases) {
        const response = await post(t, [file]);
        expect(response.status, file.name).toBe(415);
        const message = await errorOf(response);
        expect(message, file.name).toContain(file.name);
        expect(message).toMatch(/not a supported image or video/);
        // After a good image, the image is kept and this file named as refused (decision 144).
        await expectPartOfPostKept(t, [{ name: 'good.png', data: await makeImage('png') }, file], {
          filename: file.name,
          error: message,
        });
      }
      expect(await leftovers(t)).toEqual(before);
    });

    it('refuses a truncated or corrupt image with a 400 naming it', async () => {
      const before = await leftovers(t);
      const jpeg = await noisyImage('jpeg', { width: 400, height: 300, sigma: 30 });
      const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
      const response = await post(t, [{ name: 'half.jpg', data: truncated }]);
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toBe(
        'half.jpg could not be read: the image is damaged or incomplete.',
      );
      const empty = await post(t, [{ name: 'empty.png', data: Buffer.alloc(0) }]);
      expect(empty.status).toBe(400);
      expect(await errorOf(empty)).toBe('empty.png is empty.');
      expect(await leftovers(t)).toEqual(before);
    });

    it('checks the caption, the username and the files', async () => {
      const before = await leftovers(t);
      const png = { name: 'a.png', data: await makeImage('png') };
      const cases: [Record<string, string>, UploadFile[], number, RegExp][] = [
        [{ username: 'ada' }, [png], 400, /Caption is required/],
        [{ caption: '   ', username: 'ada' }, [png], 400, /Caption is required/],
        [{ caption: 'x'.repeat(2001), username: 'ada' }, [png], 400, /at most 2000 characters/],
        [{ caption: 'hi' }, [png], 400, /Username is required/],
        [{ caption: 'hi', username: 'a\nb' }, [png], 400, /not allowed/],
        [defaults, [], 400, /at least one image or video/],
        [defaults, [{ ...png, field: 'picture' }], 400, /Unexpected file field "picture"/],
        [defaults, Array.from({ length: 11 }, () => png), 400, /at most 10 files/],
      ];
      for (const [fields, files, status, message] of cases) {
        const response = await post(t, files, fields);
        expect(response.status, JSON.stringify(fields)).toBe(status);
        expect(await errorOf(response)).toMatch(message);
      }
      const json = await fetch(`${t.url}/api/memories`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(defaults),
      });
      expect(json.status).toBe(415);
      expect(await errorOf(json)).toMatch(/multipart\/form-data/);
      expect(await leftovers(t)).toEqual(before);
    });

    it('accepts the files in the share dialog\'s "media" field, and a caption of 2000 characters', async () => {
      const memories = await postOk(
        t,
        [
          { name: 'a.png', data: await makeImage('png'), field: 'media' },
          { name: 'b.png', data: await makeImage('png'), field: 'media' },
        ],
        { caption: 'é'.repeat(2000), username: 'linus' },
      );
      expect(memories).toHaveLength(2);
      expect(memories[0]?.text).toHaveLength(2000);
    });

    it('tells every open gallery about new and deleted memories', async () => {
      const socket = await watch();
      const created = collect(socket, 'memoryCreated');
      const deleted = collect(socket, 'memoryDeleted');
      const memories = await postOk(t, [
        { name: 'a.png', data: await makeImage('png') },
        { name: 'b.png', data: await makeImage('png') },
      ]);
      // Events of other posts may arrive too (every open gallery hears every post): each of
      // this post's memories arrives exactly once.
      const ids = memories.map((m) => m._id);
      const mine = () =>
        created
          .map((event) => memorySchema.parse(event.memory)._id)
          .filter((id) => ids.includes(id));
      await vi.waitFor(() => expect(mine().sort()).toEqual([...ids].sort()), { timeout: 5000 });
      const target = ids[0] ?? '';
      expect(await deleteMemory(t.app.deps, target)).toBe(true);
      await vi.waitFor(() => expect(deleted).toContainEqual({ id: target }), { timeout: 5000 });
      expect(deleted.filter((event) => event.id === target)).toHaveLength(1);
    });
  });

  describe('GET /api/memory', () => {
    it('pages newest first with limit and before', async () => {
      // Posts of one file each: a page never ends inside a post (decision 143; tested apart).
      for (let i = 0; i < 5; i += 1) {
        await postOk(t, [{ name: `p${i}.png`, data: await makeImage('png', 10 + i, 10) }]);
      }
      const all = memoryListSchema.parse(
        await (await fetch(`${t.url}/api/memory?limit=200`)).json(),
      );
      const ids = all.map((m) => m._id);
      expect([...ids].sort().reverse()).toEqual(ids);
      const first = memoryListSchema.parse(
        await (await fetch(`${t.url}/api/memory?limit=2`)).json(),
      );
      expect(first.map((m) => m._id)).toEqual(ids.slice(0, 2));
      const second = memoryListSchema.parse(
        await (await fetch(`${t.url}/api/memory?limit=2&before=${ids[1]}`)).json(),
      );
      expect(second.map((m) => m._id)).toEqual(ids.slice(2, 4));
      const defaultPage = memoryListSchema.parse(await (await fetch(`${t.url}/api/memory`)).json());
      expect(defaultPage.length).toBe(Math.min(ids.length, 60));

      for (const query of ['limit=0', 'limit=201', 'limit=abc', 'before=nope']) {
        const response = await fetch(`${t.url}/api/memory?${query}`);
        expect(response.status, query).toBe(400);
        expect(await errorOf(response)).toBeTruthy();
      }
    });

    it('answers 304 to a matching If-None-Match until the list changes', async () => {
      const first = await fetch(`${t.url}/api/memory`);
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^W\/".+"$/);
      expect(first.headers.get('cache-control')).toBe('no-cache');

      const again = await fetch(`${t.url}/api/memory`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);

      // Another page has its own tag.
      const other = await fetch(`${t.url}/api/memory?limit=5`, {
        headers: { 'if-none-match': etag },
      });
      expect(other.status).toBe(200);

      const [created] = (await postOk(t, [{ name: 'a.png', data: await makeImage('png') }])) as [
        Memory,
      ];
      const afterPost = await fetch(`${t.url}/api/memory`, { headers: { 'if-none-match': etag } });
      expect(afterPost.status).toBe(200);
      const postTag = afterPost.headers.get('etag') ?? '';
      expect(postTag).not.toBe(etag);
      expect(memoryListSchema.parse(await afterPost.json())[0]?._id).toBe(created._id);

      await deleteMemory(t.app.deps, created._id);
      const afterDelete = await fetch(`${t.url}/api/memory`, {
        headers: { 'if-none-match': postTag },
      });
      expect(afterDelete.status).toBe(200);
      expect(memoryListSchema.parse(await afterDelete.json()).map((m) => m._id)).not.toContain(
        created._id,
      );
    });

    it('answers the polled first page, 304 or 200, without the database', async () => {
      const other = await startTestApp({ database });
      try {
        const first = await fetch(`${other.url}/api/memory`);
        const etag = first.headers.get('etag') ?? '';
        const body = await first.text();
        await other.app.deps.database.close();
        const cached = await fetch(`${other.url}/api/memory`, {
          headers: { 'if-none-match': etag },
        });
        expect(cached.status).toBe(304);
        // The current version's answer is kept: a client without it gets the same bytes.
        const uncached = await fetch(`${other.url}/api/memory?limit=60`);
        expect(uncached.status).toBe(200);
        expect(uncached.headers.get('etag')).toBe(etag);
        expect(await uncached.text()).toBe(body);
        // Any other page needs the database.
        const other5 = await fetch(`${other.url}/api/memory?limit=5`);
        expect(other5.status).toBe(500);
      } finally {
        other.app.deps.database.close = () => Promise.resolve();
        await other.close();
      }
    });

    it('GET /api/memory/:id answers one memory, 404 when unknown', async () => {
      const [memory] = (await postOk(t, [{ name: 'a.png', data: await makeImage('png') }])) as [
        Memory,
      ];
      const found = await fetch(`${t.url}/api/memory/${memory._id}`);
      expect(memorySchema.parse(await found.json())).toEqual(memory);
      const missing = await fetch(`${t.url}/api/memory/0190f7d2-0000-7000-8000-000000000000`);
      expect(missing.status).toBe(404);
      expect(await errorOf(missing)).toBe('Memory not found');
      const bad = await fetch(`${t.url}/api/memory/nope`);
      expect(bad.status).toBe(400);
    });
  });
});

describe('memory upload limits', () => {
  const t = useTestApp({ env: { MAX_UPLOAD_MB: '0.05', WRITE_RATE_LIMIT: '1000' } });

  it('refuses a file over MAX_UPLOAD_MB with a 413 while streaming, keeping nothing', async () => {
    const before = await leftovers(t);
    const big = await noisyImage();
    expect(big.length).toBeGreaterThan(0.05 * 1024 * 1024);
    for (const files of [
      [{ name: 'huge.png', data: big }],
      [{ name: 'huge.mp4', data: Buffer.concat([await fixture('clip.mp4'), big]) }],
    ]) {
      const response = await post(t, files);
      expect(response.status).toBe(413);
      expect(await errorOf(response)).toBe(
        `${files.at(-1)?.name} is larger than 0.05MB and cannot be uploaded.`,
      );
    }
    // Beside a file that fits, the big one is refused on its own and the other kept; a file
    // after the big one is read too (decision 144).
    const small = await makeImage('png');
    const mixed = await post(t, [
      { name: 'small.png', data: small },
      { name: 'huge.png', data: big },
      { name: 'after.png', data: small },
    ]);
    expect(mixed.status, await mixed.clone().text()).toBe(201);
    const answer = memoryPostResponseSchema.parse(await mixed.json());
    expect(answer.memories).toHaveLength(2);
    expect(answer.refused).toEqual([
      { filename: 'huge.png', error: 'huge.png is larger than 0.05MB and cannot be uploaded.' },
    ]);
    for (const memory of answer.memories) await deleteMemory(t.app.deps, memory._id);
    expect(await leftovers(t)).toEqual(before);
  });

  it('an upload cut off halfway leaves no row and no file', async () => {
    const before = await leftovers(t);
    const boundary = 'confabBoundary42';
    const png = await makeImage('png');
    const mp4 = await fixture('clip.mp4');
    const head = Buffer.from(
      [
        `--${boundary}`,
        'Content-Disposition: form-data; name="caption"',
        '',
        'Cut off',
        `--${boundary}`,
        'Content-Disposition: form-data; name="username"',
        '',
        'ada',
        `--${boundary}`,
        'Content-Disposition: form-data; name="files"; filename="a.png"',
        'Content-Type: image/png',
        '',
        '',
      ].join('\r\n'),
    );
    const secondPart = Buffer.from(
      [
        '',
        `--${boundary}`,
        'Content-Disposition: form-data; name="files"; filename="b.mp4"',
        'Content-Type: video/mp4',
        '',
        '',
      ].join('\r\n'),
    );
    const { port } = new URL(t.url);
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/memories',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(1_000_000),
      },
    });
    request.on('error', () => undefined);
    request.write(Buffer.concat([head, png, secondPart, mp4.subarray(0, 5000)]));
    // Cut the request off once the first image is in the store and the video is on its way.
    await vi.waitFor(
      async () => expect((await storedFiles(t)).length).toBeGreaterThan(before.files.length),
      { timeout: 10_000 },
    );
    request.destroy();
    await vi.waitFor(async () => expect(await leftovers(t)).toEqual(before), { timeout: 10_000 });
  });

  it('rate-limits writes per person', async () => {
    const limited = await startTestApp({ env: { WRITE_RATE_LIMIT: '2' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await post(limited, [{ name: 'a.png', data: await makeImage('png') }]);
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('the /memory page', () => {
  const t = useTestApp({
    client: {
      'index.html':
        '<!doctype html><html><head><meta charset="UTF-8" /><meta name="description" content="App" /><title>Confab</title></head><body><div id="root"></div></body></html>',
    },
    env: { EVENT_NAME: 'DevFest', PUBLIC_URL: 'https://devfest.example.com/' },
  });

  it('carries Open Graph and twitter:card tags naming the image, all escaped', async () => {
    const [memory] = (await postOk(
      t,
      [{ name: 'a.png', data: await makeImage('png', 1200, 630) }],
      { caption: 'Best talk "ever" <script>alert(1)</script> & more', username: 'eve<b>' },
    )) as [Memory];
    // A Host header chosen by the client is never written back into the page.
    const response = await rawGet(`${t.url}/memory?id=${memory._id}`, {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    const html = response.body.toString();
    expect(html).not.toContain('evil.example');
    const origin = 'https://devfest.example.com';
    expect(html).toContain(`<meta property="og:image" content="${origin}${memory.media}" />`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).toContain(`<meta name="twitter:image" content="${origin}${memory.media}" />`);
    expect(html).toContain(
      `<meta property="og:url" content="${origin}/memory?id=${memory._id}" />`,
    );
    expect(html).toContain('<meta property="og:image:width" content="1200" />');
    expect(html).toContain(
      '<meta property="og:title" content="eve&lt;b&gt;&#39;s memory at DevFest" />',
    );
    expect(html).toContain(
      'content="Best talk &quot;ever&quot; &lt;script&gt;alert(1)&lt;/script&gt; &amp; more"',
    );
    expect(html).toContain('<title>eve&lt;b&gt;&#39;s memory at DevFest</title>');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('content="App"');
    expect(html.match(/name="description"/g)).toHaveLength(1);
    // The rest of the page is the app's, with the header's shell in its root (decision 093).
    expect(html).toContain('<div id="root"><header class="app-header">');
  });

  it('serves the page as built for a missing or unknown id', async () => {
    for (const url of [
      '/memory',
      '/memory?id=nope',
      '/memory?id=0190f7d2-0000-7000-8000-000000000000',
    ]) {
      const response = await fetch(`${t.url}${url}`);
      expect(response.status, url).toBe(200);
      const html = await response.text();
      expect(html, url).toContain('<title>DevFest</title>');
      expect(html, url).not.toContain('og:image');
    }
  });
});
