import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../tests/support/media.ts';
import { bearer, joinAttendee } from '../../../tests/support/speakers.ts';
import { type TestApp, testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { memoryListSchema } from '../../shared/schemas/memory.ts';
import { longestUploadMs } from '../config.ts';
import { newId } from '../lib/ids.ts';
import {
  ABANDONED_AFTER_MS,
  createFinisher,
  openResumableStore,
  sweepAbandonedUploads,
} from './upload.service.ts';

/** `Upload-Metadata`: each key with its value in base64. */
const metadataOf = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

interface Who {
  token: string;
  username: string;
}

/** The headers of every tus request, with the attendee's token when there is one. */
const tusHeaders = (who?: Who) => ({ 'tus-resumable': '1.0.0', ...bearer(who?.token) });

/** The headers of a PATCH that sends the upload's bytes from `offset` on. */
const patchHeaders = (who: Who, offset: number) => ({
  ...tusHeaders(who),
  'content-type': 'application/offset+octet-stream',
  'upload-offset': String(offset),
});

async function create(
  t: TestApp,
  who: Who | undefined,
  size: number,
  metadata: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${t.url}/api/uploads`, {
    method: 'POST',
    headers: {
      ...tusHeaders(who),
      'upload-length': String(size),
      'upload-metadata': metadataOf(metadata),
      ...headers,
    },
  });
}

const patch = (t: TestApp, who: Who, location: string, offset: number, bytes: Buffer) =>
  fetch(`${t.url}${location}`, {
    method: 'PATCH',
    headers: patchHeaders(who, offset),
    body: new Uint8Array(bytes),
  });

const head = (t: TestApp, who: Who, location: string) =>
  fetch(`${t.url}${location}`, {
    method: 'HEAD',
    headers: tusHeaders(who),
  });

/**
 * A PATCH cut off by the network: its headers and the first `sent` bytes of `bytes` go out, then
 * the connection is destroyed, as a phone leaving the Wi-Fi does.
 */
function cutPatch(
  t: TestApp,
  who: Who,
  location: string,
  offset: number,
  bytes: Buffer,
  sent: number,
): Promise<void> {
  return new Promise((resolve) => {
    const request = http.request(`${t.url}${location}`, {
      method: 'PATCH',
      headers: { ...patchHeaders(who, offset), 'content-length': String(bytes.length) },
    });
    request.on('error', () => resolve());
    request.on('close', () => resolve());
    request.write(bytes.subarray(0, sent), () => {
      // Long enough for the server to store what arrived, then the line goes dead.
      setTimeout(() => request.destroy(), 300);
    });
  });
}

async function gallery(t: TestApp) {
  const response = await fetch(`${t.url}/api/memory?limit=50`);
  return memoryListSchema.parse(await response.json());
}

/** Files the tus store holds on disk (the upload and its `.json` info). */
async function resumableFiles(t: TestApp): Promise<string[]> {
  return fs.readdir(path.join(t.dataDir, 'resumable')).catch(() => []);
}

/** Keys of unfinished uploads in the bucket, or files on disk, whichever the app uses. */
async function leftovers(t: TestApp): Promise<string[]> {
  if (t.config.mediaStore === 'disk') return resumableFiles(t);
  const keys: string[] = [];
  for await (const key of t.app.deps.media.list('')) {
    if (!key.startsWith('memories/') && !key.startsWith('speakers/')) keys.push(key);
  }
  return keys;
}

async function bigPhoto(): Promise<Buffer> {
  // Noise does not compress: a JPEG of a few hundred kB, sent in pieces.
  const { data, info } = await sharp({
    create: {
      width: 900,
      height: 700,
      channels: 3,
      background: '#888',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: info }).jpeg({ quality: 95 }).toBuffer();
}

const combos = [
  ...testDatabases.map((database) => ({ database, media: 'disk' as const })),
  { database: testDatabases.at(-1) ?? ('sqlite' as const), media: 's3' as const },
];

describe.each(combos)('resumable uploads ($database, $media)', ({ database, media }) => {
  const t = useTestApp({ database, media });
  let ann: Who;
  let bob: Who;
  let photo: Buffer;

  beforeAll(async () => {
    ann = { username: 'ann', token: await joinAttendee(t.url, 'ann') };
    bob = { username: 'bob', token: await joinAttendee(t.url, 'bob') };
    photo = await bigPhoto();
  });

  const meta = (caption: string, extra: Record<string, string> = {}) => ({
    filename: 'photo.jpg',
    filetype: 'image/jpeg',
    caption,
    username: 'ann',
    ...extra,
  });

  it('resumes a PATCH cut off midway from the offset HEAD gives, and makes one memory', async () => {
    const created = await create(t, ann, photo.length, meta('Cut off and resumed'));
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
    // Security headers apply as on every route.
    expect(created.headers.get('x-content-type-options')).toBe('nosniff');

    await cutPatch(t, ann, location, 0, photo, 100_000);
    const after = await head(t, ann, location);
    expect(after.status).toBe(200);
    const offset = Number(after.headers.get('upload-offset'));
    expect(after.headers.get('upload-length')).toBe(String(photo.length));
    expect(after.headers.get('cache-control')).toBe('no-store');
    // What arrived before the cut is kept on disk; S3 keeps whole parts (8 MB), so a cut in
    // the first part starts that part again.
    if (media === 'disk') expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(photo.length);

    // A PATCH from the wrong offset is a conflict and changes nothing.
    const wrong = await patch(t, ann, location, offset + 1, photo.subarray(offset + 1));
    expect(wrong.status).toBe(409);
    expect(typeof ((await wrong.json()) as { error?: unknown }).error).toBe('string');

    const rest = await patch(t, ann, location, offset, photo.subarray(offset));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(photo.length));
    const memoryId = rest.headers.get('memory-id');
    expect(memoryId).toBeTruthy();

    const list = await gallery(t);
    const made = list.filter((m) => m.text === 'Cut off and resumed');
    expect(made).toHaveLength(1);
    expect(made[0]?._id).toBe(memoryId);
    expect(made[0]?.contentType).toBe('image/jpeg');
    // Rendered like any memory: a display rendition at most 2048 px and a thumbnail.
    expect(made[0]?.thumbnail).toBeTruthy();
    const served = await fetch(`${t.url}${made[0]?.media}`);
    const rendered = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(rendered.exif).toBeUndefined();

    // Finished twice: the last PATCH again, and a HEAD, make nothing more.
    const again = await patch(t, ann, location, offset, photo.subarray(offset));
    expect(again.status).toBe(409);
    const last = await patch(t, ann, location, photo.length, Buffer.alloc(0));
    expect(last.status).toBe(204);
    const done = await head(t, ann, location);
    expect(done.status).toBe(200);
    expect(done.headers.get('upload-offset')).toBe(String(photo.length));
    expect(done.headers.get('memory-id')).toBe(memoryId);
    expect((await gallery(t)).filter((m) => m.text === 'Cut off and resumed')).toHaveLength(1);
    // The upload's own bytes are gone once they are a memory.
    expect(await leftovers(t)).toEqual([]);
  });

  it('makes one memory when the last PATCH is sent twice at once', async () => {
    const created = await create(t, ann, photo.length, meta('Twice at once'));
    const location = created.headers.get('location') ?? '';
    const first = await patch(t, ann, location, 0, photo.subarray(0, 200_000));
    expect(first.status).toBe(204);
    const results = await Promise.all([
      patch(t, ann, location, 200_000, photo.subarray(200_000)),
      patch(t, ann, location, 200_000, photo.subarray(200_000)),
    ]);
    expect(results.map((r) => r.status)).toContain(204);
    const mine = (await gallery(t)).filter((m) => m.text === 'Twice at once');
    expect(mine).toHaveLength(1);
  });

  it('makes one memory when two instances finish the same upload at once', async () => {
    const created = await create(t, ann, photo.length, meta('Two instances'));
    const id = (created.headers.get('location') ?? '').split('/').pop() ?? '';
    // Every byte is in the store, and two finishers (each instance has its own) see it at once.
    const store = await openResumableStore(t.config);
    await store.write(Readable.from([photo]), id, 0);
    const context = {
      media: t.app.deps.media,
      stagingDir: path.join(t.dataDir, 'uploads'),
      images: t.app.deps.images,
      videos: t.app.deps.videos,
    };
    const mediaBefore = await t.storedMediaKeys('memories/');
    const [one, two] = [1, 2].map(() =>
      createFinisher(t.app.deps, context, store, { warn: () => undefined }),
    );
    const upload = await store.getUpload(id);
    const results = await Promise.all([one?.finish(upload), two?.finish(upload)]);
    const ids = results.map((r) => (r && 'memoryId' in r ? r.memoryId : undefined));
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBe(ids[0]);
    const made = (await gallery(t)).filter((m) => m.text === 'Two instances');
    expect(made.map((m) => m._id)).toEqual([ids[0]]);
    // The loser's renditions went: exactly one display image and one thumbnail were added.
    const added = (await t.storedMediaKeys('memories/')).filter((k) => !mediaBefore.includes(k));
    expect(added).toHaveLength(2);
  });

  it('groups the files of one post under its postId', async () => {
    const postId = newId();
    const small = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#f00' },
    })
      .png()
      .toBuffer();
    for (const name of ['a.png', 'b.png']) {
      const created = await create(
        t,
        ann,
        small.length,
        meta('Two files, one post', { filename: name, filetype: 'image/png', postId }),
      );
      const location = created.headers.get('location') ?? '';
      expect((await patch(t, ann, location, 0, small)).status).toBe(204);
    }
    const post = (await gallery(t)).filter((m) => m.text === 'Two files, one post');
    expect(post.map((m) => m.postId)).toEqual([postId, postId]);
    // Nobody else can add files to that post.
    const joined = await create(
      t,
      bob,
      small.length,
      meta('Mine now', { username: 'bob', filetype: 'image/png', postId }),
    );
    expect(joined.status).toBe(403);
  });

  it('refuses uploads without a valid attendee token, and leaves nothing', async () => {
    const before = await leftovers(t);
    const rowsBefore = await t.app.deps.db.selectFrom('resumable_uploads').select('id').execute();
    expect((await create(t, undefined, 10, meta('No token'))).status).toBe(401);
    const forged = await create(
      t,
      { ...ann, token: `${ann.token.slice(0, -4)}AAAA` },
      10,
      meta('x'),
    );
    expect(forged.status).toBe(401);
    expect(typeof ((await forged.json()) as { error?: unknown }).error).toBe('string');
    const wrongKind = await create(t, { ...ann, token: 'not-a-token' }, 10, meta('x'));
    expect(wrongKind.status).toBe(401);
    // Someone else's name.
    expect((await create(t, bob, 10, meta('As ann'))).status).toBe(403);
    expect(await leftovers(t)).toEqual(before);
    const rows = await t.app.deps.db.selectFrom('resumable_uploads').select('id').execute();
    expect(rows).toEqual(rowsBefore);
  });

  it("hides one attendee's upload from another", async () => {
    const created = await create(t, ann, photo.length, meta('Private'));
    const location = created.headers.get('location') ?? '';
    expect((await head(t, bob, location)).status).toBe(404);
    expect((await patch(t, bob, location, 0, photo)).status).toBe(404);
    const unknown = await head(t, ann, `/api/uploads/${newId()}`);
    expect(unknown.status).toBe(404);
    const hostile = await head(t, ann, '/api/uploads/..%2F..%2Fetc%2Fpasswd');
    expect(hostile.status).toBe(404);
    // Abandoned by its owner: gone, files and all.
    const removed = await fetch(`${t.url}${location}`, {
      method: 'DELETE',
      headers: tusHeaders(ann),
    });
    expect(removed.status).toBe(204);
    expect((await head(t, ann, location)).status).toBe(404);
  });

  it('refuses bad metadata, a type that is no picture or video, and a size over the limit', async () => {
    const before = await leftovers(t);
    const noCaption = await create(t, ann, 10, { filename: 'a.jpg', username: 'ann' });
    expect(noCaption.status).toBe(400);
    expect(await noCaption.json()).toMatchObject({ error: 'Caption is required' });
    expect((await create(t, ann, 10, meta('pdf', { filetype: 'application/pdf' }))).status).toBe(
      415,
    );
    const tooBig = await create(t, ann, t.config.maxUploadMb * 1024 * 1024 + 1, meta('big'));
    expect(tooBig.status).toBe(413);
    expect((await create(t, ann, 0, meta('empty'))).status).toBe(400);
    const noLength = await fetch(`${t.url}/api/uploads`, {
      method: 'POST',
      headers: { ...tusHeaders(ann), 'upload-defer-length': '1' },
    });
    expect(noLength.status).toBe(400);
    const badMeta = await create(t, ann, 10, {}, { 'upload-metadata': 'caption ***' });
    expect(badMeta.status).toBe(400);
    expect(await leftovers(t)).toEqual(before);
  });

  it('refuses a finished file whose bytes are no picture or video, and leaves nothing', async () => {
    const mediaBefore = await t.storedMediaKeys('memories/');
    const text = Buffer.from('%PDF-1.4 this is not a photo at all '.repeat(40));
    const created = await create(t, ann, text.length, meta('Disguised'));
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    const refused = await patch(t, ann, location, 0, text);
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as { error: string }).error).toContain('not a supported');
    expect((await gallery(t)).filter((m) => m.text === 'Disguised')).toHaveLength(0);
    expect(await t.storedMediaKeys('memories/')).toEqual(mediaBefore);
    expect(await leftovers(t)).toEqual([]);
    expect((await head(t, ann, location)).status).toBe(404);
  });

  it('turns a video into a memory with its metadata stripped', async () => {
    const video = await fixture('gps-android.mp4');
    const created = await create(
      t,
      ann,
      video.length,
      meta('A video', { filename: 'clip.mp4', filetype: 'video/mp4' }),
    );
    const location = created.headers.get('location') ?? '';
    const half = Math.floor(video.length / 2);
    expect((await patch(t, ann, location, 0, video.subarray(0, half))).status).toBe(204);
    expect((await patch(t, ann, location, half, video.subarray(half))).status).toBe(204);
    const [memory] = (await gallery(t)).filter((m) => m.text === 'A video');
    expect(memory?.contentType).toBe('video/mp4');
    const served = Buffer.from(await (await fetch(`${t.url}${memory?.media}`)).arrayBuffer());
    expect(served.length).toBe(video.length);
    expect(served.includes(Buffer.from('+48.8'))).toBe(false);
  });

  it('sweeps uploads abandoned for a day, never one in progress', async () => {
    const abandoned = await create(t, ann, photo.length, meta('Abandoned'));
    const abandonedAt = abandoned.headers.get('location') ?? '';
    await patch(t, ann, abandonedAt, 0, photo.subarray(0, 100_000));
    const active = await create(t, ann, photo.length, meta('Active'));
    const activeAt = active.headers.get('location') ?? '';
    await patch(t, ann, activeAt, 0, photo.subarray(0, 100_000));
    const old = new Date(Date.now() - ABANDONED_AFTER_MS - 60_000).toISOString();
    await t.app.deps.db
      .updateTable('resumable_uploads')
      .set({ touched_at: old })
      .where('id', '=', abandonedAt.split('/').pop() ?? '')
      .execute();
    const removed = await sweepAbandonedUploads(
      { db: t.app.deps.db },
      await openResumableStore(t.config),
      Date.now(),
    );
    expect(removed).toBe(1);
    expect((await head(t, ann, abandonedAt)).status).toBe(404);
    const still = await head(t, ann, activeAt);
    expect(still.status).toBe(200);
    expect(Number(still.headers.get('upload-offset'))).toBe(100_000);
    const left = (await leftovers(t)).join(' ');
    expect(left).not.toContain(abandonedAt.split('/').pop());
    expect(left).toContain(activeAt.split('/').pop());
    // The active one finishes as usual.
    const offset = Number(still.headers.get('upload-offset'));
    expect((await patch(t, ann, activeAt, offset, photo.subarray(offset))).status).toBe(204);
  });
});

describe.each(combos)('room for unfinished uploads ($database, $media)', ({ database, media }) => {
  /** The app's clock runs this far ahead of the real one. */
  let ahead = 0;
  const clock = { now: () => new Date(Date.now() + ahead) };
  // Two unfinished uploads per attendee and 1 MB reserved in all, so the bounds are met quickly.
  const t = useTestApp({
    database,
    media,
    clock,
    env: { UPLOADS_UNFINISHED_PER_ATTENDEE: '2', UPLOADS_DISK_BUDGET_MB: '1', MAX_UPLOAD_MB: '1' },
  });
  const budget = 1024 * 1024;
  let png: Buffer;

  beforeAll(async () => {
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#00f' } })
      .png()
      .toBuffer();
  });

  afterEach(async () => {
    // Every unfinished upload of a test goes with it, as the sweep removes them after a day.
    ahead += ABANDONED_AFTER_MS + 60_000;
    await sweepAbandonedUploads(
      { db: t.app.deps.db },
      await openResumableStore(t.config),
      clock.now().getTime(),
    );
  });

  /** An attendee who joins for this test. */
  const attendee = async (username: string): Promise<Who> => ({
    username,
    token: await joinAttendee(t.url, username),
  });

  const meta = (who: Who, caption: string) => ({
    filename: 'photo.png',
    filetype: 'image/png',
    caption,
    username: who.username,
  });

  const unfinished = async () =>
    (
      await t.app.deps.db
        .selectFrom('resumable_uploads')
        .select('id')
        .where('memory_id', 'is', null)
        .execute()
    ).map((row) => row.id);

  /** Past what a PATCH in flight and the making of its memory can take. */
  const idle = () => longestUploadMs(t.config) + 60_000;

  it('lets an attendee hold a few unfinished uploads at once; finishing or abandoning one frees its place', async () => {
    const cy = await attendee('cy');
    const first = await create(t, cy, png.length, meta(cy, 'One'));
    const second = await create(t, cy, png.length, meta(cy, 'Two'));
    expect([first.status, second.status]).toEqual([201, 201]);
    const rows = await unfinished();
    const files = await leftovers(t);

    const third = await create(t, cy, png.length, meta(cy, 'Three'));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await third.json()).toMatchObject({
      code: 'TOO_MANY_UPLOADS',
      error: expect.stringContaining('2 unfinished uploads') as unknown,
    });
    // Nothing is left of the refused one.
    expect(await unfinished()).toEqual(rows);
    expect(await leftovers(t)).toEqual(files);
    // Another attendee is not held back by cy's.
    const dee = await attendee('dee');
    expect((await create(t, dee, png.length, meta(dee, 'Dee'))).status).toBe(201);

    // Finished: its place is free.
    const firstAt = first.headers.get('location') ?? '';
    expect((await patch(t, cy, firstAt, 0, png)).status).toBe(204);
    const fourth = await create(t, cy, png.length, meta(cy, 'Four'));
    expect(fourth.status).toBe(201);
    expect((await create(t, cy, png.length, meta(cy, 'Five'))).status).toBe(429);
    // Abandoned by its owner: its place is free too.
    const removed = await fetch(`${t.url}${second.headers.get('location') ?? ''}`, {
      method: 'DELETE',
      headers: tusHeaders(cy),
    });
    expect(removed.status).toBe(204);
    expect((await create(t, cy, png.length, meta(cy, 'Six'))).status).toBe(201);
  });

  it('makes room for an attendee by removing their oldest idle upload, never an active one', async () => {
    const eli = await attendee('eli');
    const old = await create(t, eli, png.length, meta(eli, 'Old'));
    const oldAt = old.headers.get('location') ?? '';
    expect((await patch(t, eli, oldAt, 0, png.subarray(0, 100))).status).toBe(204);
    ahead += idle();
    const recent = await create(t, eli, png.length, meta(eli, 'Recent'));
    expect(recent.status).toBe(201);
    // The old one is idle: it goes, files and all, and the new one takes its place.
    const next = await create(t, eli, png.length, meta(eli, 'Next'));
    expect(next.status).toBe(201);
    expect((await head(t, eli, oldAt)).status).toBe(404);
    const oldId = oldAt.split('/').pop() ?? '';
    expect((await leftovers(t)).join(' ')).not.toContain(oldId);
    expect(await unfinished()).not.toContain(oldId);
    // Both left are recent: the next one is refused.
    expect((await create(t, eli, png.length, meta(eli, 'Refused'))).status).toBe(429);
    expect((await head(t, eli, recent.headers.get('location') ?? '')).status).toBe(200);
  });

  it('refuses an upload once the bytes unfinished uploads reserve would pass the budget', async () => {
    const [fay, gus] = [await attendee('fay'), await attendee('gus')];
    const big = Math.floor(budget * 0.6);
    const first = await create(t, fay, big, meta(fay, 'Big'));
    expect(first.status).toBe(201);
    const rows = await unfinished();
    const files = await leftovers(t);

    const refused = await create(t, gus, big, meta(gus, 'Too much'));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({
      code: 'UPLOADS_FULL',
      error: expect.stringContaining('try again') as unknown,
    });
    expect(await unfinished()).toEqual(rows);
    expect(await leftovers(t)).toEqual(files);
    // What is left still takes a smaller one.
    expect((await create(t, gus, budget - big, meta(gus, 'Fits'))).status).toBe(201);
    expect((await create(t, gus, 1, meta(gus, 'One byte more'))).status).toBe(413);
  });

  it('removes the oldest idle uploads of anyone to make room, never an active one', async () => {
    const [hal, ivy, jo, kim] = [
      await attendee('hal'),
      await attendee('ivy'),
      await attendee('jo'),
      await attendee('kim'),
    ];
    const third = Math.floor(budget / 3);
    const old = await create(t, hal, third, meta(hal, 'Old'));
    const oldAt = old.headers.get('location') ?? '';
    expect((await patch(t, hal, oldAt, 0, png.subarray(0, 100))).status).toBe(204);
    ahead += idle();
    const active = await create(t, ivy, third, meta(ivy, 'Active'));
    const activeAt = active.headers.get('location') ?? '';
    expect(active.status).toBe(201);
    const filler = await create(t, kim, third, meta(kim, 'Filler'));
    expect(filler.status).toBe(201);
    // Full: hal's idle upload goes to make room, ivy's and kim's stay.
    const next = await create(t, jo, third, meta(jo, 'Next'));
    expect(next.status).toBe(201);
    expect((await head(t, hal, oldAt)).status).toBe(404);
    expect((await leftovers(t)).join(' ')).not.toContain(oldAt.split('/').pop());
    expect((await head(t, ivy, activeAt)).status).toBe(200);
    // Nothing idle is left to remove: the next is refused.
    expect((await create(t, hal, third, meta(hal, 'Refused'))).status).toBe(413);
  });

  it('never reserves past the budget when uploads start at once', async () => {
    const people = await Promise.all(['lu', 'mo', 'ned', 'oz', 'pia'].map(attendee));
    const big = Math.floor(budget * 0.4);
    const answers = await Promise.all(
      people.map((who) => create(t, who, big, meta(who, 'At once'))),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 413)).toHaveLength(3);
    expect(await unfinished()).toHaveLength(2);
  });
});
