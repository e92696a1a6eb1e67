import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSqliteFile, sqliteFile } from './db/connect.ts';
import {
  addSpeaker,
  askQuestion,
  collect,
  joinAttendee,
  watchingSocket,
} from '../../tests/support/speakers.ts';
import { type TcpProxy, startTcpProxy } from '../../tests/support/tcp-proxy.ts';
import { type TestApp, startTestApp, useTestApp } from '../../tests/support/test-app.ts';

const health = async (t: TestApp) => (await fetch(`${t.url}/api/health`)).status;

/** A write that reaches the database: a question asked. */
const ask = (t: TestApp, speakerId: string, question: string) =>
  fetch(`${t.url}/questions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ speakerId, question, askerUsername: 'ada' }),
  });

/** A read that reaches the database every time (the lists may be answered from memory). */
const readMemory = (t: TestApp) =>
  fetch(`${t.url}/api/memory/01900000-0000-7000-8000-000000000000`);

/** What a call answers while the database cannot: a 503 the client retries, never a 500. */
async function expectDatabaseDown(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(5);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toMatchObject({
    error: 'The database cannot be reached right now; try again in a few seconds',
    code: 'SERVICE_UNAVAILABLE',
  });
}

/**
 * Another connection holds SQLite's write lock, as a backup or a maintenance script may: writes
 * wait the busy timeout and then fail with SQLITE_BUSY. Reads go on (WAL).
 */
describe('a SQLite database locked by another process', () => {
  const t = useTestApp();

  it('answers writes 503 with Retry-After while locked, and takes them again after', async () => {
    const speaker = await addSpeaker(t.url, 'Grace Hopper');
    let locker: DatabaseSync | undefined = openSqliteFile(sqliteFile(t.dataDir));
    try {
      locker.exec('begin immediate');
      await expectDatabaseDown(await ask(t, speaker._id, 'Asked while it is locked?'));
      await expectDatabaseDown(
        await fetch(`${t.url}/api/attendees`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'grace' }),
        }),
      );
      // Readers are not blocked by a writer.
      expect((await readMemory(t)).status).toBe(404);
      locker.exec('rollback');
      locker.close();
      locker = undefined;

      expect((await ask(t, speaker._id, 'Asked once it is free?')).status).toBe(201);
      expect(await joinAttendee(t.url, 'grace')).toEqual(expect.any(String));
      const questions = (await (
        await fetch(`${t.url}/api/questions/realtime?speakerId=${speaker._id}`)
      ).json()) as { question: string }[];
      expect(questions.map((q) => q.question)).toEqual(['Asked once it is free?']);
    } finally {
      locker?.close();
    }
  });
});

/** One instance on PostgreSQL through a proxy the test cuts: writes and reads alike fail. */
describe.runIf(process.env.TEST_DATABASE_URL)('a PostgreSQL database cut off', () => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    const direct = new URL(process.env.TEST_DATABASE_URL ?? '');
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    t = await startTestApp({
      database: 'postgres',
      media: 'disk',
      env: { DATABASE_URL: viaProxy.href },
    });
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await t.close();
    await proxy.close();
  });

  it('answers writes and reads 503 with Retry-After, and answers again when it is back', async () => {
    const speaker = await addSpeaker(t.url, 'Edsger Dijkstra');
    expect((await readMemory(t)).status).toBe(404);
    await proxy.cut();
    try {
      await expectDatabaseDown(await ask(t, speaker._id, 'Asked while it is down?'));
      await expectDatabaseDown(await readMemory(t));
      await expectDatabaseDown(
        await fetch(`${t.url}/api/attendees`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'edsger' }),
        }),
      );
    } finally {
      await proxy.restore();
    }
    await vi.waitFor(async () => expect((await readMemory(t)).status).toBe(404), {
      timeout: 10_000,
      interval: 200,
    });
    expect((await ask(t, speaker._id, 'Asked once it is back?')).status).toBe(201);
    expect(await joinAttendee(t.url, 'edsger')).toEqual(expect.any(String));
  });
});

/**
 * Two instances reach PostgreSQL through a proxy that the test cuts, as a database restart, a
 * failover or `pg_terminate_backend` does: every connection ends at once, and new ones are
 * refused until the database is back.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('a PostgreSQL outage', () => {
  let proxy: TcpProxy;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const direct = new URL(process.env.TEST_DATABASE_URL ?? '');
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    a = await startTestApp({
      database: 'postgres',
      media: 'disk',
      env: { DATABASE_URL: viaProxy.href },
    });
    b = await startTestApp({
      database: 'postgres',
      media: 'disk',
      env: { DATABASE_URL: viaProxy.href, DATABASE_SCHEMA: a.config.databaseSchema ?? '' },
    });
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await b.close();
    await a.close();
    await proxy.close();
  });

  it('keeps every instance up, reports it in health, and comes back live within 10 s', async () => {
    const speaker = await addSpeaker(a.url, 'Barbara Liskov');
    const poll = `${b.url}/api/questions/realtime?speakerId=${speaker._id}`;
    const tag = (await fetch(poll)).headers.get('etag') ?? '';
    expect((await fetch(poll, { headers: { 'if-none-match': tag } })).status).toBe(304);
    const watcher = await watchingSocket(b.url, [{ room: 'speaker', speakerId: speaker._id }]);
    try {
      await proxy.cut();
      // Both instances are still here, and say the database is down.
      await vi.waitFor(async () => expect([await health(a), await health(b)]).toEqual([503, 503]), {
        timeout: 10_000,
        interval: 200,
      });
      // Down a while: the LISTEN connections fail to come back a few times (backoff).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect([await health(a), await health(b)]).toEqual([503, 503]);

      await proxy.restore();
      const back = Date.now();
      await vi.waitFor(async () => expect([await health(a), await health(b)]).toEqual([200, 200]), {
        timeout: 10_000,
        interval: 200,
      });
      // Live events and list freshness across instances come back by themselves.
      const received = collect(watcher, 'newQuestion');
      await vi.waitFor(
        async () => {
          await askQuestion(a.url, {
            speakerId: speaker._id,
            question: `Still there at ${Date.now() - back} ms?`,
            askerUsername: 'ada',
          });
          expect(received.length).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 1_000 },
      );
      // The other instance's list is fresh again too (its events' bus listens again).
      await vi.waitFor(
        async () => {
          const fresh = await fetch(poll, { headers: { 'if-none-match': tag } });
          expect(fresh.status).toBe(200);
          const listed = ((await fresh.json()) as { _id: string }[]).map((q) => q._id);
          expect(listed).toEqual(expect.arrayContaining(received.map((p) => p.question._id)));
        },
        { timeout: Math.max(1, back + 10_000 - Date.now()), interval: 200 },
      );
      expect(Date.now() - back).toBeLessThan(10_000);
    } finally {
      watcher.close();
    }
  });
});
