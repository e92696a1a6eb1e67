import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type Memory,
  memoryListSchema,
  memoryPostResponseSchema,
  ownMemoriesSchema,
} from '../../shared/schemas/memory.ts';
import {
  adminToken,
  bearer,
  collect,
  errorOf,
  forged,
  joinAttendee,
} from '../../../tests/support/speakers.ts';
import {
  type TestApp,
  testDatabases,
  useTestApp,
  useWatchingSockets,
} from '../../../tests/support/test-app.ts';

const PASSWORD = 'correct horse battery staple';

const png = (background = '#4c6ef5') =>
  sharp({ create: { width: 32, height: 24, channels: 3, background } })
    .png()
    .toBuffer();

async function postFiles(
  t: TestApp,
  files: number,
  token?: string,
  username = 'ada',
): Promise<Response> {
  const body = new FormData();
  body.append('caption', `A post of ${files}`);
  body.append('username', username);
  for (let i = 0; i < files; i += 1) {
    body.append(
      'files',
      new Blob([new Uint8Array(await png())], { type: 'image/png' }),
      `${i}.png`,
    );
  }
  return fetch(`${t.url}/api/memories`, { method: 'POST', body, headers: bearer(token) });
}

async function post(t: TestApp, files: number, token?: string): Promise<Memory[]> {
  const response = await postFiles(t, files, token);
  expect(response.status).toBe(201);
  return memoryPostResponseSchema.parse(await response.json()).memories;
}

const remove = (t: TestApp, id: string, token?: string) =>
  fetch(`${t.url}/api/memories/${id}`, { method: 'DELETE', headers: bearer(token) });

async function rowCount(t: TestApp): Promise<number> {
  const { count } = await t.app.deps.db
    .selectFrom('memories')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return count;
}

/** Every URL a memory's files are served at. */
const filesOf = (memory: Memory) => [memory.media, memory.thumbnail].filter((url) => url !== null);

async function status(t: TestApp, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${url}`, { headers });
  await response.arrayBuffer();
  return response.status;
}

describe.each(testDatabases)('own memories on %s', (database) => {
  const t = useTestApp({
    database,
    env: { ADMIN_USERNAME: 'moderator', ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '1000' },
  });
  const watch = useWatchingSockets(t);
  let ada: string;
  let alan: string;

  beforeAll(async () => {
    ada = await joinAttendee(t.url, 'ada');
    alan = await joinAttendee(t.url, 'alan');
  });

  it('an attendee deletes their own memory: gone from lists, its page and its files, live', async () => {
    const deleted = collect(await watch(), 'memoryDeleted');
    const [first, second] = (await post(t, 2, ada)) as [Memory, Memory];
    const mine = await fetch(`${t.url}/api/memories/mine`, { headers: bearer(ada) });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toMatch(/no-store/);
    const own = ownMemoriesSchema.parse(await mine.json()).ids;
    expect(own.slice(0, 2)).toEqual([first._id, second._id]);
    for (const url of filesOf(first)) expect(await status(t, url)).toBe(200);

    const response = await remove(t, first._id, ada);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Memory deleted' });

    await vi.waitFor(() => expect(deleted).toContainEqual({ id: first._id }), { timeout: 5000 });
    expect(await status(t, `/api/memory/${first._id}`)).toBe(404);
    for (const url of filesOf(first)) expect(await status(t, url)).toBe(404);
    const list = memoryListSchema.parse(await (await fetch(`${t.url}/api/memory`)).json());
    expect(list.map((m) => m._id)).not.toContain(first._id);
    expect(list.map((m) => m._id)).toContain(second._id);
    const after = ownMemoriesSchema.parse(
      await (await fetch(`${t.url}/api/memories/mine`, { headers: bearer(ada) })).json(),
    );
    expect(after.ids).not.toContain(first._id);

    // Deleting twice: it is not there any more.
    expect((await remove(t, first._id, ada)).status).toBe(404);
  });

  it("refuses anyone else's, a missing, forged or wrong kind of token, and bad ids", async () => {
    const [memory] = (await post(t, 1, ada)) as [Memory];
    const [anonymous] = (await post(t, 1)) as [Memory];
    const admin = await adminToken(t.url, PASSWORD, 'moderator');
    const before = await rowCount(t);

    const other = await remove(t, memory._id, alan);
    expect(other.status).toBe(403);
    expect(await errorOf(other)).toMatch(/Only the attendee who posted/);
    // Posted without a token: nobody's, so no attendee may delete it.
    for (const token of [ada, alan])
      expect((await remove(t, anonymous._id, token)).status).toBe(403);

    for (const [token, expected] of [
      [undefined, 401],
      [forged(ada), 401],
      ['not-a-token', 401],
      [admin, 401],
    ] as const) {
      const response = await remove(t, memory._id, token);
      expect(response.status, String(token)).toBe(expected);
      expect(await errorOf(response)).toBeTruthy();
    }
    const basic = await fetch(`${t.url}/api/memories/${memory._id}`, {
      method: 'DELETE',
      headers: { authorization: 'Basic YWRhOmFkYQ==' },
    });
    expect(basic.status).toBe(401);
    for (const id of ['nope', '%00', `${memory._id}'--`, 'x'.repeat(5000)]) {
      const response = await remove(t, id, ada);
      expect(response.status, id).toBeGreaterThanOrEqual(400);
      expect(response.status, id).toBeLessThan(500);
    }
    expect((await remove(t, '0190c0de-0000-7000-8000-000000000000', ada)).status).toBe(404);
    const big = await fetch(`${t.url}/api/memories/${memory._id}`, {
      method: 'DELETE',
      headers: { ...bearer(ada), 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(10_000) }),
    });
    expect(big.status).toBe(413);
    expect((await fetch(`${t.url}/api/memories/mine`)).status).toBe(401);
    expect(
      (await fetch(`${t.url}/api/memories/mine`, { headers: bearer(forged(ada)) })).status,
    ).toBe(401);

    expect(await rowCount(t)).toBe(before);
    for (const url of [...filesOf(memory), ...filesOf(anonymous)]) {
      expect(await status(t, url)).toBe(200);
    }
  });

  it('a post with a forged token is refused and leaves no row and no file', async () => {
    const rows = await rowCount(t);
    const files = await t.storedMediaKeys();
    const response = await postFiles(t, 2, forged(ada));
    expect(response.status).toBe(401);
    expect(await rowCount(t)).toBe(rows);
    expect(await t.storedMediaKeys()).toEqual(files);
  });

  it("the admin's deletion also tells every open viewer and makes the files a 404", async () => {
    const deleted = collect(await watch(), 'memoryDeleted');
    const [memory] = (await post(t, 1, ada)) as [Memory];
    const response = await fetch(`${t.url}/api/media/${memory._id}`, {
      method: 'DELETE',
      headers: bearer(await adminToken(t.url, PASSWORD, 'moderator')),
    });
    expect(response.status).toBe(200);
    await vi.waitFor(() => expect(deleted).toContainEqual({ id: memory._id }), { timeout: 5000 });
    for (const url of filesOf(memory)) expect(await status(t, url)).toBe(404);
    expect(await status(t, `/api/memory/${memory._id}`)).toBe(404);
  });

  it('media: a year in browsers, revalidated by shared caches, 304 by ETag, 404 once deleted', async () => {
    const [memory] = (await post(t, 1, ada)) as [Memory];
    const first = await fetch(`${t.url}${memory.media}`);
    await first.arrayBuffer();
    const cacheControl = first.headers.get('cache-control') ?? '';
    expect(cacheControl).toMatch(/(^|, )max-age=31536000(,|$)/);
    expect(cacheControl).toMatch(/(^|, )s-maxage=0(,|$)/);
    expect(cacheControl).toMatch(/proxy-revalidate/);
    const tag = first.headers.get('etag') ?? '';
    expect(tag).toMatch(/^"[^"]+"$/);

    // What a CDN asks before reusing its copy: unchanged while the memory is there ...
    const again = await fetch(`${t.url}${memory.media}`, { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(
      (await fetch(`${t.url}${memory.media}`, { headers: { 'if-none-match': '"x"' } })).status,
    ).toBe(200);
    // ... and a 404 from the moment it is deleted, so the copy is dropped.
    expect((await remove(t, memory._id, ada)).status).toBe(200);
    expect(await status(t, memory.media, { 'if-none-match': tag })).toBe(404);
  });

  it('pages of the gallery never split a post nor answer one twice', async () => {
    // Newest first: a post of one, a post of three, a post of four, a post of one.
    const posts = [await post(t, 1), await post(t, 4), await post(t, 3), await post(t, 1)];
    const expected = posts.reverse().flat();
    const ids = new Set(expected.map((m) => m._id));
    const seen: Memory[] = [];
    let before: string | undefined;
    const pages: Memory[][] = [];
    for (let guard = 0; guard < 50; guard += 1) {
      const query = new URLSearchParams({ limit: '2' });
      if (before) query.set('before', before);
      const page = memoryListSchema.parse(
        await (await fetch(`${t.url}/api/memory?${query.toString()}`)).json(),
      );
      pages.push(page);
      seen.push(...page);
      if (page.length < 2) break;
      before = page.at(-1)?._id;
    }
    const ours = seen.filter((m) => ids.has(m._id));
    // Each memory once, in the post's order, newest post first.
    expect(ours.map((m) => m._id)).toEqual(expected.map((m) => m._id));
    // No post's memories are on two pages.
    const pageOfPost = new Map<string, number>();
    pages.forEach((page, index) => {
      for (const memory of page) {
        const known = pageOfPost.get(memory.postId);
        expect(known === undefined || known === index, memory.postId).toBe(true);
        pageOfPost.set(memory.postId, index);
      }
    });
    // The page a poll asks for may grow past `limit` by the rest of its last post, never less.
    const second = pages[1] ?? [];
    expect(new Set(second.map((m) => m.postId))).toEqual(new Set([expected[4]?.postId]));
    expect(second.length).toBe(4);
  });

  it('GET /api/memory/:id answers one memory, 404 when unknown, 400 for a bad id', async () => {
    const [memory] = (await post(t, 1)) as [Memory];
    const one = await fetch(`${t.url}/api/memory/${memory._id}`);
    expect(one.status).toBe(200);
    expect(((await one.json()) as Memory)._id).toBe(memory._id);
    expect(await status(t, '/api/memory/0190c0de-0000-7000-8000-000000000000')).toBe(404);
    expect(await status(t, '/api/memory/not-an-id')).toBe(400);
  });
});
