import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addSpeaker, askQuestion, collect, watchingSocket } from '../../tests/support/speakers.ts';
import { type TcpProxy, startTcpProxy } from '../../tests/support/tcp-proxy.ts';
import { type TestApp, startTestApp } from '../../tests/support/test-app.ts';

const health = async (t: TestApp) => (await fetch(`${t.url}/api/health`)).status;

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
      // The other instance's list is fresh again too (its change feed listens again).
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
