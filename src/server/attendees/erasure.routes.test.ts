import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type TestApp,
  type TestAppOptions,
  startTestApp,
  testDatabases,
  useTestApp,
  useWatchingSockets,
} from '../../../tests/support/test-app.ts';
import {
  addSpeaker,
  adminToken,
  bearer,
  collect,
  errorOf,
  forged,
  joinAttendee,
} from '../../../tests/support/speakers.ts';
import { readZip } from '../../../tests/support/zip.ts';
import {
  type Memory,
  memoryListSchema,
  memoryPostResponseSchema,
} from '../../shared/schemas/memory.ts';
import { type Question, questionSchema } from '../../shared/schemas/question.ts';
import { attendeeExportSchema, erasureResponseSchema } from '../../shared/schemas/privacy.ts';
import type { Speaker } from '../../shared/schemas/speaker.ts';
import { Events } from '../events/events.ts';
import { ErasedAttendees } from './attendee-erasures.ts';

const PASSWORD = 'erasure-admin-password';

const png = (background: string) =>
  sharp({ create: { width: 48, height: 32, channels: 3, background } })
    .png()
    .toBuffer();

/** Posts a memory of `files` photos as `username` with `token`. */
async function post(t: TestApp, token: string, username: string, files = 1): Promise<Memory[]> {
  const body = new FormData();
  body.append('caption', `${username}'s post`);
  body.append('username', username);
  for (let i = 0; i < files; i += 1) {
    const bytes = new Uint8Array(await png(i % 2 ? '#e64980' : '#4c6ef5'));
    body.append('files', new Blob([bytes], { type: 'image/png' }), `${i}.png`);
  }
  const response = await fetch(`${t.url}/api/memories`, {
    method: 'POST',
    body,
    headers: bearer(token),
  });
  expect(response.status).toBe(201);
  return memoryPostResponseSchema.parse(await response.json()).memories;
}

async function ask(t: TestApp, token: string, asker: string, speaker: Speaker, text: string) {
  const response = await fetch(`${t.url}/questions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ speakerId: speaker._id, question: text, askerUsername: asker }),
  });
  expect(response.status).toBe(201);
  return questionSchema.parse(await response.json());
}

async function vote(t: TestApp, token: string, question: Question): Promise<Response> {
  return fetch(`${t.url}/api/questions/${question._id}/vote`, {
    method: 'PUT',
    headers: bearer(token),
  });
}

/** An unfinished resumable upload of `token`'s attendee: 100 of its 5,000 bytes sent. */
async function startUpload(t: TestApp, token: string, username: string): Promise<string> {
  const metadata = { filename: 'big.jpg', filetype: 'image/jpeg', caption: 'Later', username };
  const tus = { 'tus-resumable': '1.0.0', ...bearer(token) };
  const created = await fetch(`${t.url}/api/uploads`, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': '5000',
      'upload-metadata': Object.entries(metadata)
        .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
        .join(','),
    },
  });
  expect(created.status).toBe(201);
  const location = created.headers.get('location') ?? '';
  const patched = await fetch(new URL(location, t.url), {
    method: 'PATCH',
    headers: {
      ...tus,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    },
    body: new Uint8Array(Buffer.alloc(100, 7)),
  });
  expect(patched.status).toBe(204);
  return location;
}

/** What the tus store holds: files on disk, or objects of the bucket outside the media's. */
async function uploadLeftovers(t: TestApp): Promise<string[]> {
  if (t.config.mediaStore === 'disk') {
    return fs.readdir(path.join(t.dataDir, 'resumable')).catch(() => []);
  }
  const keys: string[] = [];
  for await (const key of t.app.deps.media.list('')) {
    if (!key.startsWith('memories/') && !key.startsWith('speakers/')) keys.push(key);
  }
  return keys;
}

/** The media keys of a memory's files, from its URLs. */
const keysOf = (memory: Memory): string[] =>
  [memory.media, memory.original, memory.thumbnail, memory.poster]
    .filter((url): url is string => url !== null)
    .map((url) => url.replace(/^\/media\//, ''));

/** Whether a stored file is on the disk of the app's data directory (disk media only). */
const onDisk = (t: TestApp, key: string) =>
  fs.stat(path.join(t.dataDir, 'media', key)).then(
    () => true,
    () => false,
  );

const erase = (t: TestApp, token?: string) =>
  fetch(`${t.url}/api/attendees/me`, { method: 'DELETE', headers: bearer(token) });

const exportOf = (t: TestApp, token?: string, suffix = '') =>
  fetch(`${t.url}/api/attendees/me/export${suffix}`, { headers: bearer(token) });

/** The attendee id a token names (its subject). */
const idOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string })
    .sub;

async function gallery(t: TestApp): Promise<string[]> {
  const response = await fetch(`${t.url}/api/memory?limit=100`);
  return memoryListSchema.parse(await response.json()).map((memory) => memory._id);
}

async function questionsOf(t: TestApp, speaker: Speaker): Promise<Question[]> {
  const response = await fetch(`${t.url}/api/questions/realtime?speakerId=${speaker._id}`);
  return (await response.json()) as Question[];
}

/** SQLite with files on disk and in a bucket; PostgreSQL with a bucket. */
const setups: { database: 'sqlite' | 'postgres'; media: 'disk' | 's3' }[] = [
  { database: 'sqlite', media: 'disk' },
  { database: 'sqlite', media: 's3' },
  ...(testDatabases.includes('postgres') ? [{ database: 'postgres', media: 's3' } as const] : []),
];

describe.each(setups)('erasure and export on $database with $media media', (setup) => {
  const t = useTestApp({
    ...setup,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '1000', PUBLIC_URL: 'https://confab.test' },
  });
  const watch = useWatchingSockets(t);
  let speaker: Speaker;

  beforeAll(async () => {
    speaker = await addSpeaker(t.url, 'Barbara Liskov');
  });

  it('exports everything of the attendee as JSON and their photos as a ZIP, nobody else’s', async () => {
    const ada = await joinAttendee(t.url, 'ada');
    const alan = await joinAttendee(t.url, 'alan');
    const memories = await post(t, ada, 'ada', 2);
    const [others] = (await post(t, alan, 'alan')) as [Memory];
    const asked = await ask(t, ada, 'ada', speaker, 'What is substitutable?');
    const alansQuestion = await ask(t, alan, 'alan', speaker, 'And abstraction?');
    expect((await vote(t, ada, alansQuestion)).status).toBe(200);

    const response = await exportOf(t, ada);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toMatch(/no-store/);
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="my-data-/);
    const data = attendeeExportSchema.parse(await response.json());
    expect(data.attendee).toMatchObject({ id: idOf(ada), username: 'ada' });
    expect(data.attendee.joinedAt).toBeTruthy();
    expect(data.memories.map((m) => m._id).sort()).toEqual(memories.map((m) => m._id).sort());
    for (const memory of data.memories) {
      expect(memory.media).toMatch(/^https:\/\/confab\.test\/media\/memories\//);
      expect(memory.original).toMatch(/^https:\/\/confab\.test\/media\/memories\//);
    }
    expect(data.questions).toEqual([asked]);
    expect(data.votes).toEqual([
      expect.objectContaining({ questionId: alansQuestion._id, question: 'And abstraction?' }),
    ]);
    expect(data.pollAnswers).toEqual([]);
    expect(JSON.stringify(data)).not.toContain(others._id);

    const zip = await exportOf(t, ada, '.zip');
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('x-archive-files')).toBe('2');
    const entries = readZip(Buffer.from(await zip.arrayBuffer()));
    expect(entries).toHaveLength(2);
    // Each entry is the memory's master, byte for byte as the app serves it.
    const masters = await Promise.all(
      memories.map(async (m) =>
        Buffer.from(await (await fetch(`${t.url}${m.original}`)).arrayBuffer()),
      ),
    );
    expect(entries.map((e) => e.data.toString('base64')).sort()).toEqual(
      masters.map((b) => b.toString('base64')).sort(),
    );
    for (const entry of entries) expect(entry.name).toMatch(/ ada - ada's post/);

    // Alan's export holds his, not hers.
    const his = attendeeExportSchema.parse(await (await exportOf(t, alan)).json());
    expect(his.memories.map((m) => m._id)).toEqual([others._id]);
    expect(his.questions.map((q) => q._id)).toEqual([alansQuestion._id]);
    expect(his.votes).toEqual([]);
  });

  it('erases everything of the attendee: rows, files, uploads, live on open screens, and the token', async () => {
    const grace = await joinAttendee(t.url, 'grace');
    const alan = await joinAttendee(t.url, 'alan');
    const everyone = await watch();
    const room = await watch([{ room: 'speaker', speakerId: speaker._id }]);
    const memoryDeleted = collect(everyone, 'memoryDeleted');
    const questionDeleted = collect(room, 'questionDeleted');
    const questionUpdated = collect(room, 'questionUpdated');

    const memories = await post(t, grace, 'grace', 2);
    const [kept] = (await post(t, alan, 'alan')) as [Memory];
    const asked = await ask(t, grace, 'grace', speaker, 'Why did COBOL win?');
    const alansQuestion = await ask(t, alan, 'alan', speaker, 'What about Fortran?');
    // Alan votes for her question (it goes, with his vote); she votes for his (its count drops).
    expect((await vote(t, alan, asked)).status).toBe(200);
    expect((await vote(t, grace, alansQuestion)).status).toBe(200);
    await startUpload(t, grace, 'grace');
    const keys = memories.flatMap(keysOf);
    expect(keys.length).toBeGreaterThanOrEqual(4);
    const stored = await t.storedMediaKeys();
    for (const key of keys) expect(stored).toContain(key);
    if (setup.media === 'disk') for (const key of keys) expect(await onDisk(t, key)).toBe(true);
    const uploadsBefore = await uploadLeftovers(t);
    expect(uploadsBefore.length).toBeGreaterThan(0);

    const response = await erase(t, grace);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/no-store/);
    const { removed } = erasureResponseSchema.parse(await response.json());
    expect(removed).toEqual({
      memories: 2,
      questions: 1,
      votes: 1,
      pollAnswers: 0,
      files: new Set(keys).size + 1,
    });

    // Files: gone from the store (and the disk), her unfinished upload's chunks too.
    const after = await t.storedMediaKeys();
    for (const key of keys) expect(after).not.toContain(key);
    if (setup.media === 'disk') for (const key of keys) expect(await onDisk(t, key)).toBe(false);
    expect(await uploadLeftovers(t)).toEqual([]);
    for (const key of keysOf(kept)) expect(after).toContain(key);

    // Rows: gone from every list; Alan's question counts one vote less.
    const listed = await gallery(t);
    for (const memory of memories) expect(listed).not.toContain(memory._id);
    expect(listed).toContain(kept._id);
    const questions = await questionsOf(t, speaker);
    expect(questions.map((q) => q._id)).not.toContain(asked._id);
    expect(questions.find((q) => q._id === alansQuestion._id)?.votes).toBe(0);

    // Open screens heard of each.
    await vi.waitFor(
      () => {
        expect(memoryDeleted.map((e) => e.id).sort()).toEqual(memories.map((m) => m._id).sort());
        expect(questionDeleted).toContainEqual({ id: asked._id, speakerId: speaker._id });
        expect(
          questionUpdated.filter((e) => e.question._id === alansQuestion._id).at(-1)?.question
            .votes,
        ).toBe(0);
      },
      { timeout: 5000 },
    );

    // The token is refused everywhere now, erasing again included.
    for (const response of [
      await erase(t, grace),
      await exportOf(t, grace),
      await exportOf(t, grace, '.zip'),
      await fetch(`${t.url}/api/memories/mine`, { headers: bearer(grace) }),
      await vote(t, grace, alansQuestion),
    ]) {
      expect(response.status).toBe(401);
      expect(await errorOf(response)).toMatch(/deleted/);
    }
    const data = await t.app.deps.db
      .selectFrom('attendees')
      .selectAll()
      .where('id', '=', idOf(grace))
      .executeTakeFirstOrThrow();
    expect(data.username).toBe('');
    expect(data.erased_at).toBeTruthy();
    expect(
      await t.app.deps.db
        .selectFrom('question_votes')
        .select('question_id')
        .where('attendee_id', '=', idOf(grace))
        .execute(),
    ).toEqual([]);

    // An instance starting now knows it from the database, without any event.
    const later = await ErasedAttendees.open(
      t.app.deps.db,
      new Events(() => undefined),
      t.app.deps.clock,
    );
    expect(later.stateOf(idOf(grace))).toBe('erased');
    expect(later.stateOf(idOf(alan))).toBeUndefined();

    // The same name may join again: a new attendee, with nothing of the old one.
    const again = await joinAttendee(t.url, 'grace');
    expect(idOf(again)).not.toBe(idOf(grace));
    const fresh = attendeeExportSchema.parse(await (await exportOf(t, again)).json());
    expect(fresh).toMatchObject({ memories: [], questions: [], votes: [] });
  });

  it('refuses no token, a forged one, another kind, and a body; another attendee erases only their own', async () => {
    const ada = await joinAttendee(t.url, 'ada');
    const alan = await joinAttendee(t.url, 'alan');
    const [memory] = (await post(t, ada, 'ada')) as [Memory];
    const admin = await adminToken(t.url, PASSWORD);
    for (const token of [undefined, forged(ada), 'not-a-token', admin]) {
      for (const response of [
        await erase(t, token),
        await exportOf(t, token),
        await exportOf(t, token, '.zip'),
      ]) {
        expect(response.status, String(token)).toBe(401);
        expect(await errorOf(response)).toBeTruthy();
      }
    }
    const big = await fetch(`${t.url}/api/attendees/me`, {
      method: 'DELETE',
      headers: { ...bearer(ada), 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(10_000) }),
    });
    expect(big.status).toBe(413);
    expect(await gallery(t)).toContain(memory._id);

    // Alan's erasure is Alan's: hers stays, and her token still works.
    const his = erasureResponseSchema.parse(await (await erase(t, alan)).json());
    expect(his.removed.memories).toBe(0);
    expect(await gallery(t)).toContain(memory._id);
    expect((await exportOf(t, ada)).status).toBe(200);
  });

  it('a file the store fails to delete leaves nothing else behind; the next DELETE finishes', async () => {
    const edsger = await joinAttendee(t.url, 'edsger');
    const memories = await post(t, edsger, 'edsger', 2);
    const keys = memories.flatMap(keysOf);
    const media = t.app.deps.media;
    const [failing] = keys as [string];
    const realDelete = media.delete.bind(media);
    const spy = vi.spyOn(media, 'delete').mockImplementation(async (key) => {
      if (key === failing) throw new Error('the store is away');
      return realDelete(key);
    });
    try {
      const first = await erase(t, edsger);
      expect(first.status).toBe(503);
      expect(first.headers.get('retry-after')).toBeTruthy();
      expect(await errorOf(first)).toMatch(/try again/);
    } finally {
      spy.mockRestore();
    }
    // Everything but that file is gone; the token is refused but to finish.
    const listed = await gallery(t);
    for (const memory of memories) expect(listed).not.toContain(memory._id);
    expect(await t.storedMediaKeys()).toContain(failing);
    expect((await exportOf(t, edsger)).status).toBe(401);

    const second = await erase(t, edsger);
    expect(second.status).toBe(200);
    const { removed } = erasureResponseSchema.parse(await second.json());
    expect(removed).toMatchObject({ memories: 0, files: 1 });
    const after = await t.storedMediaKeys();
    for (const key of keys) expect(after).not.toContain(key);
    expect((await erase(t, edsger)).status).toBe(401);
  });
});

describe('erasure limits', () => {
  const t = useTestApp({ env: { WRITE_RATE_LIMIT: '3' } });

  it('erasing and exporting are rate-limited per attendee', async () => {
    const ada = await joinAttendee(t.url, 'ada');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await exportOf(t, ada)).status);
    const limited = await erase(t, ada);
    expect(statuses).toEqual([200, 200, 200]);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    // Nothing was erased: the token still does.
    expect((await fetch(`${t.url}/api/memories/mine`, { headers: bearer(ada) })).status).toBe(200);
  });
});

/** Two instances on one PostgreSQL database: the token stops on both at once. */
describe.runIf(process.env.TEST_DATABASE_URL)('erasure across instances', () => {
  const a = useTestApp({ database: 'postgres', media: 'disk' });

  it('an attendee erased through one instance is refused by the other', async () => {
    const options: TestAppOptions = {
      database: 'postgres',
      media: 'disk',
      env: { DATABASE_SCHEMA: a.config.databaseSchema ?? '' },
    };
    const b = await startTestApp(options);
    try {
      const ada = await joinAttendee(a.url, 'ada');
      expect((await exportOf(b, ada)).status).toBe(200);
      expect((await erase(a, ada)).status).toBe(200);
      await vi.waitFor(async () => expect((await exportOf(b, ada)).status).toBe(401), {
        timeout: 5000,
      });
      expect((await erase(b, ada)).status).toBe(401);
    } finally {
      await b.close();
    }
  });
});
