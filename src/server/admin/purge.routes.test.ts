import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../tests/support/manual-clock.ts';
import {
  addSpeaker,
  adminToken,
  bearer,
  call,
  collect,
  forged,
  joinAttendee,
  speakerFiles,
  watchingSocket,
} from '../../../tests/support/speakers.ts';
import {
  type TestApp,
  type TestAppOptions,
  startTestApp,
  testDatabases,
  useTestApp,
} from '../../../tests/support/test-app.ts';
import { purgeResponseSchema } from '../../shared/schemas/admin.ts';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import { memoryListSchema } from '../../shared/schemas/memory.ts';
import { pollSchema } from '../../shared/schemas/poll.ts';
import { questionSchema } from '../../shared/schemas/question.ts';
import { adminStatsSchema, settingsResponseSchema } from '../../shared/schemas/settings.ts';
import { ErasedAttendees } from '../attendees/attendee-erasures.ts';
import { Events } from '../events/events.ts';
import type { MediaStore } from '../media/media-store.ts';

const PASSWORD = 'correct horse battery staple';
const EVENT = 'DevConf 2027';

const png = (background: string) =>
  sharp({ create: { width: 48, height: 32, channels: 3, background } })
    .png()
    .toBuffer();

/** Posts a memory of two photos as the attendee of `token`. */
async function postMemory(t: TestApp, token: string, username: string, caption: string) {
  const form = new FormData();
  form.append('caption', caption);
  form.append('username', username);
  form.append('files', new Blob([new Uint8Array(await png('#0c8599'))]), 'a.png');
  form.append('files', new Blob([new Uint8Array(await png('#e8590c'))]), 'b.png');
  const response = await call(t.url, 'POST', '/api/memories', { token, form });
  expect(response.status).toBe(201);
}

/** Starts a resumable upload and sends the first bytes of it: an unfinished upload. */
async function startUpload(t: TestApp, token: string, username: string) {
  const metadata = { filename: 'photo.jpg', filetype: 'image/jpeg', caption: 'later', username };
  const created = await fetch(`${t.url}/api/uploads`, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      ...bearer(token),
      'upload-length': '200000',
      'upload-metadata': Object.entries(metadata)
        .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
        .join(','),
    },
  });
  expect(created.status).toBe(201);
  const patched = await fetch(`${t.url}${created.headers.get('location') ?? ''}`, {
    method: 'PATCH',
    headers: {
      'tus-resumable': '1.0.0',
      ...bearer(token),
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    },
    body: new Uint8Array(Buffer.alloc(1000, 7)),
  });
  expect(patched.status).toBe(204);
}

/** What is left of resumable uploads: files on disk, or keys in the bucket. */
async function uploadLeftovers(t: TestApp): Promise<string[]> {
  if (t.config.mediaStore === 'disk') {
    return fs.readdir(path.join(t.dataDir, 'resumable')).catch(() => []);
  }
  const keys: string[] = [];
  for await (const key of t.app.deps.media.list('')) {
    if (!/^(memories|speakers|settings)\//.test(key)) keys.push(key);
  }
  return keys;
}

async function stats(t: TestApp, token: string) {
  const response = await call(t.url, 'GET', '/api/admin/stats', { token });
  return adminStatsSchema.parse(await response.json());
}

async function gallery(t: TestApp) {
  return memoryListSchema.parse(await (await fetch(`${t.url}/api/memory`)).json());
}

const purge = (t: TestApp, token: string | undefined, confirm: unknown) =>
  fetch(`${t.url}/api/admin/purge`, {
    method: 'POST',
    // One client, as a browser says (the limits count per client).
    headers: { ...bearer(token), 'content-type': 'application/json', 'x-confab-user': 'console' },
    body: JSON.stringify({ confirm }),
  });

/**
 * Seeds an event: a speaker, two attendees, a memory of two photos each, a question with a
 * vote, and an unfinished upload.
 */
async function seedEvent(t: TestApp, speakerName = 'Grace Hopper') {
  const speaker = await addSpeaker(t.url, speakerName);
  const ann = await joinAttendee(t.url, 'ann');
  const bob = await joinAttendee(t.url, 'bob');
  await postMemory(t, ann, 'ann', 'Opening keynote');
  await postMemory(t, bob, 'bob', 'Hallway track');
  const asked = await call(t.url, 'POST', '/questions', {
    token: ann,
    body: {
      speakerId: speaker._id,
      speakerName: speaker.name,
      question: 'How do compilers dream?',
      askerUsername: 'ann',
    },
  });
  expect(asked.status).toBe(201);
  const question = questionSchema.parse(await asked.json());
  const voted = await call(t.url, 'PUT', `/api/questions/${question._id}/vote`, { token: bob });
  expect(voted.status).toBe(200);
  await startUpload(t, bob, 'bob');
  return { speaker };
}

/** The combinations that matter: each database, and SQLite with its media in a bucket too. */
const setups = [
  ...testDatabases.map((database) => ({ database, media: undefined })),
  { database: 'sqlite' as const, media: 's3' as const },
];

describe.each(setups)('POST /api/admin/purge ($database, media $media)', ({ database, media }) => {
  const t = useTestApp({
    database,
    ...(media ? { media } : {}),
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '10000' },
  });

  it('removes attendees, memories and every file, questions, votes and uploads; keeps the rest', async () => {
    const token = await adminToken(t.url, PASSWORD);
    const saved = await call(t.url, 'PUT', '/api/admin/settings', {
      token,
      body: { eventName: EVENT, privacyNotice: 'We keep little.', retentionDays: 30 },
    });
    expect(saved.status).toBe(200);
    await seedEvent(t);
    // A poll of the whole event, answered by one attendee.
    const created = await call(t.url, 'POST', '/api/polls', {
      token,
      body: { title: 'Best talk?', type: 'single', options: [{ text: 'A' }, { text: 'B' }] },
    });
    const poll = pollSchema.parse(await created.json());
    expect(
      (
        await call(t.url, 'PATCH', `/api/polls/${poll._id}`, {
          token,
          body: { state: 'open', resultsVisible: true },
        })
      ).status,
    ).toBe(200);
    const voter = await joinAttendee(t.url, 'cat');
    const answered = await call(t.url, 'PUT', `/api/polls/${poll._id}/vote`, {
      token: voter,
      body: { optionIds: ['2'] },
    });
    expect(answered.status).toBe(200);
    // A report of a memory: it names its reporter.
    const [reported] = await gallery(t);
    const report = await call(t.url, 'POST', `/api/memories/${reported?._id ?? ''}/report`, {
      token: voter,
      body: { reason: 'Not me' },
    });
    expect(report.status).toBe(202);
    const reportRows = () => t.app.deps.db.selectFrom('memory_reports').select('id').execute();
    expect(await reportRows()).toHaveLength(1);
    const speakerPictures = await speakerFiles(t);
    expect(speakerPictures.length).toBeGreaterThan(0);
    const memoryFiles = await t.storedMediaKeys('memories/');
    expect(memoryFiles.length).toBeGreaterThanOrEqual(4);
    if (t.config.mediaStore === 'disk') expect(await uploadLeftovers(t)).not.toEqual([]);
    expect(await stats(t, token)).toMatchObject({ attendees: 3, memories: 4, questions: 1 });

    // The name not typed exactly: nothing happens.
    for (const wrong of ['devconf 2027', `${EVENT} `, '', 'DevConf']) {
      const refused = await purge(t, token, wrong);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        error: 'Type the event’s name exactly as it is set to confirm the purge',
        code: 'VALIDATION',
        messageId: 'invalid.purgeConfirm',
      });
    }
    for (const body of [
      {},
      { confirm: 42 },
      { confirm: EVENT, also: 1 },
      { confirm: 'x'.repeat(201) },
    ]) {
      const refused = await call(t.url, 'POST', '/api/admin/purge', { token, body });
      expect(refused.status).toBe(400);
    }
    expect(await stats(t, token)).toMatchObject({ attendees: 3, memories: 4, questions: 1 });
    expect(await t.storedMediaKeys('memories/')).toEqual(memoryFiles);

    const socket = await watchingSocket(t.url, [{ room: 'questions' }]);
    const purged = collect(socket, 'dataPurged');
    try {
      const response = await purge(t, token, EVENT);
      expect(response.status).toBe(200);
      const { removed } = purgeResponseSchema.parse(await response.json());
      expect(removed).toEqual({
        attendees: 3,
        memories: 4,
        files: memoryFiles.length,
        questions: 1,
        votes: 1,
        uploads: 1,
        pollAnswers: 1,
      });
      await expect.poll(() => purged.length).toBe(1);
    } finally {
      socket.disconnect();
    }

    // Gone from the database, the disk or the bucket, and every list.
    expect(await t.storedMediaKeys('memories/')).toEqual([]);
    expect(await uploadLeftovers(t)).toEqual([]);
    for (const key of memoryFiles) expect((await fetch(`${t.url}/media/${key}`)).status).toBe(404);
    expect(await gallery(t)).toEqual([]);
    expect(await (await fetch(`${t.url}/api/questions/realtime`)).json()).toEqual([]);
    expect(await stats(t, token)).toMatchObject({
      attendees: 0,
      memories: 0,
      questions: 0,
      votes: 0,
      speakers: 1,
    });
    // The poll stays, without its answers.
    const polls = pollSchema
      .array()
      .parse(await (await fetch(`${t.url}/api/polls?event=1`)).json());
    expect(polls.find((p) => p._id === poll._id)).toMatchObject({
      title: 'Best talk?',
      options: poll.options,
      state: 'open',
      voters: 0,
      results: {
        options: [
          { id: '1', count: 0 },
          { id: '2', count: 0 },
        ],
      },
    });
    expect(await reportRows()).toEqual([]);
    // Kept: the speakers and their pictures, the settings.
    expect(await speakerFiles(t)).toEqual(speakerPictures);
    const settings = settingsResponseSchema.parse(
      await (await call(t.url, 'GET', '/api/admin/settings', { token })).json(),
    );
    expect(settings).toMatchObject({
      eventName: EVENT,
      privacyNotice: 'We keep little.',
      retentionDays: 30,
    });

    // Again: nothing left to remove, and nothing fails.
    const again = await purge(t, token, EVENT);
    expect(again.status).toBe(200);
    expect(purgeResponseSchema.parse(await again.json()).removed).toMatchObject({
      attendees: 0,
      memories: 0,
      files: 0,
    });
  });

  it('a purge whose store fails removes every row, keeps a record of each file left, answers 503; a second run finishes', async () => {
    const token = await adminToken(t.url, PASSWORD);
    await seedEvent(t, 'Barbara Liskov');
    const files = await t.storedMediaKeys('memories/');
    const heal = failDeletes(t.app.deps.media, 3);
    try {
      const failed = await purge(t, token, EVENT);
      expect(failed.status).toBe(503);
      expect(Number(failed.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await failed.json()) as { error: string; code: string };
      expect(body.code).toBe('SERVICE_UNAVAILABLE');
      expect(body.error).toMatch(/try again/);
    } finally {
      heal();
    }
    // No row is left, and every file still stored is recorded to be deleted.
    const left = await t.storedMediaKeys('memories/');
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(files.length);
    expect(await recordedFiles(t)).toEqual(left);
    expect(await stats(t, token)).toMatchObject({ attendees: 0, memories: 0, questions: 0 });

    const finished = await purge(t, token, EVENT);
    expect(finished.status).toBe(200);
    expect(purgeResponseSchema.parse(await finished.json()).removed).toMatchObject({
      attendees: 0,
      memories: 0,
      files: left.length,
    });
    expect(await t.storedMediaKeys('memories/')).toEqual([]);
    expect(await recordedFiles(t)).toEqual([]);
    expect(await uploadLeftovers(t)).toEqual([]);
  });
});

/** The files a removal recorded and has still to delete from the store, sorted. */
async function recordedFiles(t: TestApp): Promise<string[]> {
  const rows = await t.app.deps.db.selectFrom('erasure_files').select('key').execute();
  return rows.map((row) => row.key).sort();
}

/** Makes the store's deletes fail after `okDeletes` succeeded, until `heal` is called. */
function failDeletes(media: MediaStore, okDeletes: number): () => void {
  const original = media.delete.bind(media);
  let deletes = 0;
  media.delete = async (key) => {
    deletes += 1;
    if (deletes > okDeletes) throw new Error('connection reset by the store');
    return original(key);
  };
  return () => {
    media.delete = original;
  };
}

describe('POST /api/admin/purge: who and how often', () => {
  const t = useTestApp({ env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '3' } });

  it('is the admin’s alone, and limited', async () => {
    const attendee = await joinAttendee(t.url, 'mallory');
    const admin = await adminToken(t.url, PASSWORD);
    await postMemory(t, attendee, 'mallory', 'still here');
    for (const token of [undefined, attendee, forged(admin), 'not-a-token']) {
      const response = await purge(t, token, 'Confab');
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    expect(await gallery(t)).toHaveLength(2);

    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await purge(t, admin, 'wrong')).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    const limited = await purge(t, admin, t.app.deps.settings.current.eventName);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await gallery(t)).toHaveLength(2);
  });
});

/** Whether the attendee of `token` is still taken. */
const mine = (t: TestApp, token: string) =>
  fetch(`${t.url}/api/memories/mine`, { headers: bearer(token) }).then((r) => r.status);

describe.each(testDatabases)('attendee tokens after a purge (%s)', (database) => {
  const clock = new ManualClock('2027-03-10T12:00:00.000Z');
  const t = useTestApp({
    database,
    clock,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '10000' },
  });

  it('refuses every token issued before it, here and at the next start; takes one issued after', async () => {
    const token = await adminToken(t.url, PASSWORD);
    const before = await joinAttendee(t.url, 'ann');
    await postMemory(t, before, 'ann', 'Opening keynote');
    expect(await mine(t, before)).toBe(200);

    clock.advance(1000);
    const purged = await purge(t, token, t.app.deps.settings.current.eventName);
    expect(purged.status).toBe(200);
    const refused = await fetch(`${t.url}/api/memories/mine`, { headers: bearer(before) });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(
      (await call(t.url, 'POST', '/api/memories', { token: before, form: new FormData() })).status,
    ).toBe(401);

    clock.advance(1000);
    const after = await joinAttendee(t.url, 'ann');
    expect(await mine(t, after)).toBe(200);
    await postMemory(t, after, 'ann', 'After the purge');

    // An instance starting now knows it from the database, without any event.
    const later = await ErasedAttendees.open(t.app.deps.db, new Events(() => undefined), clock);
    expect(later.purgedAt?.toISOString()).toBe('2027-03-10T12:00:01.000Z');
  });
});

/** Two instances on one PostgreSQL database: a purge through one is heard by the other. */
describe.runIf(process.env.TEST_DATABASE_URL)('a purge across instances', () => {
  const clock = new ManualClock('2027-03-10T12:00:00.000Z');
  const a = useTestApp({
    database: 'postgres',
    clock,
    media: 'disk',
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '10000' },
  });

  it('refuses a token issued before it on the other instance too', async () => {
    const options: TestAppOptions = {
      database: 'postgres',
      media: 'disk',
      clock,
      env: { DATABASE_SCHEMA: a.config.databaseSchema ?? '', ADMIN_PASSWORD: PASSWORD },
    };
    const b = await startTestApp(options);
    try {
      const ann = await joinAttendee(a.url, 'ann');
      expect(await mine(b, ann)).toBe(200);
      // Tokens carry their time to the second: the purge comes in a later one.
      clock.advance(1000);
      const token = await adminToken(a.url, PASSWORD);
      expect((await purge(a, token, a.app.deps.settings.current.eventName)).status).toBe(200);
      await vi.waitFor(async () => expect(await mine(b, ann)).toBe(401), { timeout: 5000 });
    } finally {
      await b.close();
    }
  });
});

describe.each(testDatabases)('the retention sweep (%s)', (database) => {
  const clock = new ManualClock('2027-03-10T12:00:00.000Z');
  const t = useTestApp({
    database,
    clock,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '10000' },
  });

  const config = async () =>
    publicConfigSchema.parse(await (await fetch(`${t.url}/api/config`)).json());

  it('keeps everything until the retention ends, then removes attendees’ data, and what comes after', async () => {
    let token = await adminToken(t.url, PASSWORD);
    // Days alone count from the programme's end: without a programme, nothing goes by itself.
    const days = await call(t.url, 'PUT', '/api/admin/settings', {
      token,
      body: { retentionDays: 30 },
    });
    expect(settingsResponseSchema.parse(await days.json()).retentionEndsAt).toBeNull();
    expect((await config()).dataKeptUntil).toBeNull();

    // With a programme, the days count from its last session's end (a cancelled one is left out).
    const room = await call(t.url, 'POST', '/api/admin/rooms', { token, body: { name: 'Main' } });
    const roomId = ((await room.json()) as { _id: string })._id;
    for (const [endsAt, cancelled] of [
      ['2027-03-11T17:30:00+01:00', false],
      ['2027-03-20T10:00:00Z', true],
    ] as const) {
      const session = await call(t.url, 'POST', '/api/admin/sessions', {
        token,
        body: { title: 'Closing', roomId, startsAt: '2027-03-11T09:00:00Z', endsAt, cancelled },
      });
      expect(session.status).toBe(201);
    }
    const withProgramme = await call(t.url, 'GET', '/api/admin/settings', { token });
    expect(settingsResponseSchema.parse(await withProgramme.json()).retentionEndsAt).toBe(
      '2027-04-10T16:30:00.000Z',
    );
    expect((await config()).dataKeptUntil).toBe('2027-04-10');

    const dated = await call(t.url, 'PUT', '/api/admin/settings', {
      token,
      body: { retentionUntil: '2027-03-12', privacyNotice: 'Line one\r\nLine two' },
    });
    expect(settingsResponseSchema.parse(await dated.json()).retentionEndsAt).toBe(
      '2027-03-13T00:00:00.000Z',
    );
    expect(await config()).toMatchObject({
      dataKeptUntil: '2027-03-12',
      privacyNotice: 'Line one\nLine two',
    });

    await seedEvent(t);
    const files = await t.storedMediaKeys('memories/');
    expect(await t.app.retention.sweep()).toBe(0);
    clock.advance(2 * 86_400_000); // 12 March, noon: the last day kept.
    expect(await t.app.retention.sweep()).toBe(0);
    expect(await t.storedMediaKeys('memories/')).toEqual(files);
    token = await adminToken(t.url, PASSWORD);
    expect((await stats(t, token)).attendees).toBe(2);

    clock.advance(12 * 3_600_000 + 1000); // Just past midnight.
    expect(await t.app.retention.sweep()).toBeGreaterThan(0);
    token = await adminToken(t.url, PASSWORD);
    expect(await t.storedMediaKeys('memories/')).toEqual([]);
    expect(await uploadLeftovers(t)).toEqual([]);
    expect(await stats(t, token)).toMatchObject({ attendees: 0, memories: 0, questions: 0 });
    expect(await speakerFiles(t)).not.toEqual([]);

    // After the end, whatever arrives goes at the next sweep; an empty sweep removes nothing.
    expect(await t.app.retention.sweep()).toBe(0);
    const late = await joinAttendee(t.url, 'late');
    await postMemory(t, late, 'late', 'After the party');
    expect(await t.app.retention.sweep()).toBeGreaterThan(0);
    expect(await gallery(t)).toEqual([]);
  });
});

describe('settings: privacy and retention', () => {
  const t = useTestApp({ env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '10000' } });

  it('refuses values out of their bounds with 400 and keeps the settings as they were', async () => {
    const token = await adminToken(t.url, PASSWORD);
    const put = (body: unknown) => call(t.url, 'PUT', '/api/admin/settings', { token, body });
    for (const body of [
      { retentionDays: 0 },
      { retentionDays: 3651 },
      { retentionDays: 1.5 },
      { retentionDays: '30' },
      { retentionUntil: '2027-02-30' },
      { retentionUntil: 'tomorrow' },
      { retentionUntil: '1999-12-31' },
      { retentionUntil: '2027-03-12T00:00:00Z' },
      { privacyNotice: 'x'.repeat(5001) },
      { privacyNotice: 42 },
      { privacyNotice: null },
    ]) {
      const response = await put(body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'VALIDATION' });
    }
    // Past the settings' body limit (256 KB: the blocked words' list fits under it).
    const tooBig = await put({ privacyNotice: '€'.repeat(100_000) });
    expect(tooBig.status).toBe(413);

    const stored = await put({
      retentionDays: 3650,
      retentionUntil: null,
      privacyNotice: `<script>alert(1)</script>\u0000 ${'é'.repeat(4900)}`,
    });
    expect(stored.status).toBe(200);
    const settings = settingsResponseSchema.parse(await stored.json());
    expect(settings.retentionDays).toBe(3650);
    // Plain text, kept as typed (screens show it as text), without control characters.
    expect(settings.privacyNotice.startsWith('<script>alert(1)</script> é')).toBe(true);
    const cleared = await put({ retentionDays: null, privacyNotice: '' });
    expect(settingsResponseSchema.parse(await cleared.json())).toMatchObject({
      retentionDays: null,
      privacyNotice: '',
    });
  });
});
