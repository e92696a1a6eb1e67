import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrDeviceTags, startExiftool } from '../../../tests/support/exiftool.ts';
import { fixture } from '../../../tests/support/media.ts';
import { type TestApp, testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { listBoxes } from '../../../tests/support/video-structure.ts';
import { errorResponseSchema } from '../../shared/errors.ts';
import { memoryUpdatedEventSchema } from '../../shared/events.ts';
import {
  type Memory,
  memoryPostResponseSchema,
  memorySchema,
} from '../../shared/schemas/memory.ts';
import { extractPoster, probeVideo, runFfmpeg } from '../media/ffmpeg.ts';
import { mediaUrl } from '../media/media-url.ts';
import { findMemory } from './memory.repository.ts';
import { deleteMemory } from './memory.service.ts';
import { startVideoRenditions } from './video-renditions.ts';

const exiftool = startExiftool();
afterAll(() => exiftool.end());

async function post(t: TestApp, name: string, data: Buffer, username = 'ada') {
  const body = new FormData();
  body.append('caption', 'Walking to the keynote');
  body.append('username', username);
  body.append('files', new Blob([new Uint8Array(data)]), name);
  return fetch(`${t.url}/api/memories`, { method: 'POST', body });
}

async function postOk(t: TestApp, name: string, data: Buffer, username = 'ada'): Promise<Memory> {
  const response = await post(t, name, data, username);
  const body: unknown = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  const [memory] = memoryPostResponseSchema.parse(body).memories;
  if (!memory) throw new Error('no memory');
  return memory;
}

async function memoryOf(t: TestApp, id: string): Promise<Memory> {
  const response = await fetch(`${t.url}/api/memory/${id}`);
  expect(response.status).toBe(200);
  return memorySchema.parse(await response.json());
}

/** The stored original of a memory (its `original_key`), as served. */
async function originalUrl(t: TestApp, id: string): Promise<string> {
  const row = await t.app.deps.db
    .selectFrom('memories')
    .select(['original_key'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  if (!row.original_key) throw new Error('no original');
  return mediaUrl(row.original_key);
}

/** Downloads a served file into `dir`; answers its path and the response. */
async function download(t: TestApp, url: string, dir: string) {
  const response = await fetch(`${t.url}${url}`);
  expect(response.status, url).toBe(200);
  const file = path.join(
    dir,
    `${Math.random().toString(36).slice(2)}${path.extname(url.split('?')[0] ?? '')}`,
  );
  await fs.writeFile(file, Buffer.from(await response.arrayBuffer()));
  return { file, response };
}

/** The colour at a point of a picture (RGB). */
async function colourAt(picture: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(picture).raw().toBuffer({ resolveWithObject: true });
  const at = (Math.round(y) * info.width + Math.round(x)) * info.channels;
  return [...data.subarray(at, at + 3)];
}

const isRed = ([r = 0, g = 0, b = 0]: number[]) => r > 180 && g < 80 && b < 80;
const isBlue = ([r = 0, g = 0, b = 0]: number[]) => b > 180 && r < 80 && g < 80;

/** The MD5 of a file's video packets as they are: equal when a stream was copied, not encoded. */
async function videoPacketsMd5(file: string): Promise<string> {
  const run = await runFfmpeg(['-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', 'pipe:1'], {
    timeoutMs: 30_000,
    captureStdout: true,
  });
  return run.stdout.toString().trim();
}

const media = (database: string) =>
  database === 'postgres' ? (['s3'] as const) : (['disk', 's3'] as const);

describe.each(
  testDatabases.flatMap((database) => media(database).map((store) => ({ database, store }))),
)('video posters and renditions on $database with $store media', ({ database, store }) => {
  const t = useTestApp({ database, media: store });
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-renditions-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('turns a portrait HEVC .mov with location tags into an upright H.264/AAC MP4, live, without any metadata', async () => {
    const sent = await fixture('portrait-hevc.mov');
    const socket = connectSocket(t.url, { transports: ['websocket'], reconnection: false });
    const updates: Memory[] = [];
    socket.on('memoryUpdated', (payload: unknown) => {
      updates.push(memoryUpdatedEventSchema.parse(payload).memory);
    });
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    try {
      const posted = await postOk(t, 'IMG_0420.MOV', sent);
      // At once: a poster and a tile picture, upright (portrait), and the stripped file as sent.
      expect(posted.processing).toBe(true);
      expect(posted.contentType).toBe('video/quicktime');
      expect([posted.width, posted.height]).toEqual([180, 320]);
      expect(posted.poster).toMatch(/-poster\.jpg$/);
      expect(posted.thumbnail).toMatch(/-thumb\.webp$/);
      const poster = await download(t, posted.poster ?? '', dir);
      expect(poster.response.headers.get('content-type')).toBe('image/jpeg');
      const posterBytes = await fs.readFile(poster.file);
      expect(await sharp(posterBytes).metadata()).toMatchObject({ width: 180, height: 320 });
      // The source is red on the left, blue on the right, turned 90° clockwise when shown.
      expect(isRed(await colourAt(posterBytes, 90, 20))).toBe(true);
      expect(isBlue(await colourAt(posterBytes, 90, 300))).toBe(true);

      await t.app.deps.renditions.idle();
      await expect.poll(() => updates.find((memory) => memory._id === posted._id)).toBeTruthy();
      const updated = updates.find((memory) => memory._id === posted._id);
      expect(updated).toMatchObject({
        processing: false,
        contentType: 'video/mp4',
        poster: posted.poster,
        thumbnail: posted.thumbnail,
        width: 180,
        height: 320,
      });
      expect(updated?.media).toMatch(/\.mp4$/);
      expect(await memoryOf(t, posted._id)).toEqual(updated);
      const list = (await (await fetch(`${t.url}/api/memory`)).json()) as Memory[];
      expect(list.find((memory) => memory._id === posted._id)).toEqual(updated);

      // The rendition: H.264 and AAC in MP4, upright, moov before mdat.
      const rendition = await download(t, updated?.media ?? '', dir);
      expect(rendition.response.headers.get('content-type')).toBe('video/mp4');
      const probe = await probeVideo(rendition.file);
      expect(probe.video).toMatchObject({
        codec: 'h264',
        pixelFormat: 'yuv420p',
        width: 180,
        height: 320,
        rotation: 0,
      });
      expect(probe.audio?.codec).toBe('aac');
      const top = listBoxes(await fs.readFile(rendition.file))
        .filter((box) => !box.path.includes('/'))
        .map((box) => box.type);
      expect(top.indexOf('moov')).toBeGreaterThan(-1);
      expect(top.indexOf('moov')).toBeLessThan(top.indexOf('mdat'));
      const frame = await extractPoster(rendition.file, probe, { maxSide: 1280 });
      expect(isRed(await colourAt(frame, 90, 20))).toBe(true);
      expect(isBlue(await colourAt(frame, 90, 300))).toBe(true);

      // exiftool finds no place or device in anything served: rendition, original, downloads.
      const sentFile = path.join(dir, 'sent.mov');
      await fs.writeFile(sentFile, sent);
      expect(Object.keys(placeOrDeviceTags(await exiftool.tags(sentFile))).length).toBeGreaterThan(
        5,
      );
      const original = await originalUrl(t, posted._id);
      expect(original).toBe(posted.media);
      for (const url of [
        updated?.media ?? '',
        `${updated?.media ?? ''}?download=1`,
        original,
        `${original}?download=1`,
      ]) {
        const served = await download(t, url, dir);
        expect(placeOrDeviceTags(await exiftool.tags(served.file)), url).toEqual({});
        expect((await fs.readFile(served.file)).includes('+48.8584'), url).toBe(false);
      }
    } finally {
      socket.close();
    }
  });

  it('remuxes a clip that already plays everywhere instead of encoding it again', async () => {
    const posted = await postOk(t, 'clip.mp4', await fixture('gps-android.mp4'));
    await t.app.deps.renditions.idle();
    const updated = await memoryOf(t, posted._id);
    expect(updated.processing).toBe(false);
    expect(updated.media).not.toBe(posted.media);
    const rendition = await download(t, updated.media, dir);
    const sent = path.join(dir, 'clip.mp4');
    await fs.writeFile(sent, await fixture('gps-android.mp4'));
    expect(await videoPacketsMd5(rendition.file)).toBe(await videoPacketsMd5(sent));
    expect(placeOrDeviceTags(await exiftool.tags(rendition.file))).toEqual({});
  });

  it('makes a WebM an MP4 too', async () => {
    const posted = await postOk(t, 'clip.webm', await fixture('gps-tags.webm'));
    await t.app.deps.renditions.idle();
    const updated = await memoryOf(t, posted._id);
    expect(updated).toMatchObject({ processing: false, contentType: 'video/mp4' });
    const probe = await probeVideo((await download(t, updated.media, dir)).file);
    expect(probe.video.codec).toBe('h264');
  });

  it('refuses a video ffmpeg cannot read like a damaged image, keeping no row and no file', async () => {
    await t.app.deps.renditions.idle();
    const rows = async () =>
      (await t.app.deps.db.selectFrom('memories').select('id').execute()).length;
    const before = { rows: await rows(), files: await t.storedMediaKeys() };
    // Every box in place, but the coded pictures zeroed: no frame decodes.
    const clip = await fixture('clip.mp4');
    const mdat = listBoxes(clip).find((box) => box.type === 'mdat');
    if (!mdat) throw new Error('no mdat');
    const zeroed = Buffer.from(clip);
    zeroed.fill(0, mdat.offset + 8, mdat.offset + mdat.size);
    const response = await post(t, 'zeroed.mp4', zeroed);
    expect(response.status).toBe(400);
    expect(errorResponseSchema.parse(await response.json()).error).toBe(
      'zeroed.mp4 could not be read: the video is damaged or incomplete.',
    );
    expect({ rows: await rows(), files: await t.storedMediaKeys() }).toEqual(before);
    expect(await fs.readdir(path.join(t.dataDir, 'uploads'))).toEqual([]);
  });

  it('deletes the rendition, the original and the poster with the memory', async () => {
    const posted = await postOk(t, 'clip.mov', await fixture('clip.mov'));
    await t.app.deps.renditions.idle();
    const mediaKeys = (await findMemory(t.app.deps.db, posted._id))?.mediaKeys ?? [];
    // The rendition, the original, the poster and the tile picture.
    expect(mediaKeys.length).toBe(4);
    expect(await deleteMemory(t.app.deps, posted._id)).toBe(true);
    const left = await t.storedMediaKeys();
    for (const key of mediaKeys) expect(left).not.toContain(key);
  });
});

describe.each(testDatabases)('renditions across a restart on %s', (database) => {
  const t = useTestApp({ database });
  beforeAll(async () => {
    // This instance "stopped": what it was given is left processing for the next one.
    await t.app.deps.renditions.stop();
  });

  it('a video left processing is picked up at the next start, by one instance of several', async () => {
    const left = await postOk(t, 'clip.mov', await fixture('clip.mov'));
    const held = await postOk(t, 'clip.mp4', await fixture('clip.mp4'));
    const { db } = t.app.deps;
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 10 * 60_000).toISOString();
    // One was being made by an instance that died (its lease ran out); another instance is
    // making the other right now.
    await db
      .updateTable('memories')
      .set({ render_owner: 'crashed', render_lease_until: past })
      .where('id', '=', left._id)
      .execute();
    await db
      .updateTable('memories')
      .set({ render_owner: 'alive', render_lease_until: future })
      .where('id', '=', held._id)
      .execute();
    const before = await t.storedMediaKeys();

    // Two instances start on the same database at once.
    const instances = [0, 1].map(() =>
      startVideoRenditions(t.app.deps, {
        stagingDir: path.join(t.dataDir, 'uploads'),
        log: t.app.log,
      }),
    );
    try {
      await Promise.all(instances.map((instance) => instance.scan()));
      await Promise.all(instances.map((instance) => instance.idle()));
      const done = await memoryOf(t, left._id);
      expect(done).toMatchObject({ processing: false, contentType: 'video/mp4' });
      // Made once: one new file, the rendition.
      const added = (await t.storedMediaKeys()).filter((key) => !before.includes(key));
      expect(added).toEqual([done.media.replace(/^\/media\//, '')]);
      // The one another instance holds is left to it.
      expect((await memoryOf(t, held._id)).processing).toBe(true);
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
  });
});
