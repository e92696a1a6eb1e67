import pg from 'pg';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { memoryPostResponseSchema } from '../shared/schemas/memory.ts';
import { migrations } from './db/migrations/index.ts';
import { newId } from './lib/ids.ts';
import {
  addSpeaker,
  adminToken,
  askQuestion,
  bearer,
  collect,
} from '../../tests/support/speakers.ts';
import { startTestApp, useTestApp, useWatchingSockets } from '../../tests/support/test-app.ts';

const PASSWORD = 'scale-out-admin-password';

/**
 * Two instances on one PostgreSQL database and one S3 bucket, as behind a load balancer:
 * what is written through one is seen, served and pushed live by the other.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('two instances on PostgreSQL and S3', () => {
  const a = useTestApp({ database: 'postgres', env: { ADMIN_PASSWORD: PASSWORD } });
  const b = useTestApp(() => {
    const { s3 } = a.config;
    return {
      database: 'postgres',
      // No bucket of its own: it uses instance A's (set below).
      media: 'disk',
      env: {
        ADMIN_PASSWORD: PASSWORD,
        DATABASE_SCHEMA: a.config.databaseSchema ?? '',
        MEDIA_STORE: 's3',
        S3_ENDPOINT: s3.endpoint ?? '',
        S3_REGION: s3.region,
        S3_BUCKET: s3.bucket,
        S3_ACCESS_KEY_ID: s3.accessKeyId ?? '',
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey ?? '',
        S3_FORCE_PATH_STYLE: 'true',
      },
    };
  });
  const watch = useWatchingSockets(b);

  it('a question asked through one instance reaches a socket client of the other', async () => {
    const speaker = await addSpeaker(a.url, 'Grace Hopper');
    const received = collect(
      await watch([{ room: 'speaker', speakerId: speaker._id }]),
      'newQuestion',
    );
    const question = await askQuestion(a.url, {
      speakerId: speaker._id,
      speakerName: speaker.name,
      question: 'How do compilers scale?',
      askerUsername: 'ada',
    });
    await vi.waitFor(() => expect(received.map((p) => p.question._id)).toEqual([question._id]), {
      timeout: 5000,
    });
    // The other instance lists it too (both read the same database).
    const list = await fetch(`${b.url}/api/questions/realtime?speakerId=${speaker._id}`);
    expect(((await list.json()) as { _id: string }[]).map((q) => q._id)).toEqual([question._id]);
  });

  it('reactions tapped through both instances reach a socket of one, summed, none lost', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        a.app.deps.callers.signAttendee({ id: newId(), username: `tapper${i}` }),
      ),
    );
    const received = collect(await watch(), 'reactions');
    const statuses = await Promise.all(
      tokens.map(async (token, i) => {
        const response = await fetch(`${(i % 2 === 0 ? a : b).url}/api/reactions`, {
          method: 'POST',
          headers: { ...bearer(token), 'content-type': 'application/json' },
          body: JSON.stringify({ emoji: '👏' }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses).toEqual(tokens.map(() => 202));
    const claps = () => received.reduce((sum, event) => sum + (event.counts['👏'] ?? 0), 0);
    await vi.waitFor(() => expect(claps()).toBe(40), { timeout: 5000 });
    // Summed on the way: each instance's taps of a window cross as one sum.
    expect(received.length).toBeLessThan(40);
  });

  it('a question asked through one instance changes the question lists the other answers 304 to', async () => {
    const speaker = await addSpeaker(a.url, 'Frances Allen');
    const other = await addSpeaker(a.url, 'Jean Sammet');
    const poll = `${b.url}/api/questions/realtime?speakerId=${speaker._id}`;
    const otherPoll = `${b.url}/api/questions/realtime?speakerId=${other._id}`;
    const first = await fetch(poll);
    const tag = first.headers.get('etag') ?? '';
    const otherTag = (await fetch(otherPoll)).headers.get('etag') ?? '';
    // Known in memory now: answered 304 until something changes anywhere.
    expect((await fetch(poll, { headers: { 'if-none-match': tag } })).status).toBe(304);

    const question = await askQuestion(a.url, {
      speakerId: speaker._id,
      question: 'What should a compiler optimise first?',
      askerUsername: 'fran',
    });
    await vi.waitFor(
      async () => {
        const changed = await fetch(poll, { headers: { 'if-none-match': tag } });
        expect(changed.status).toBe(200);
        expect(((await changed.json()) as { _id: string }[]).map((q) => q._id)).toEqual([
          question._id,
        ]);
      },
      { timeout: 5000 },
    );
    // Another speaker's list keeps its version.
    expect((await fetch(otherPoll, { headers: { 'if-none-match': otherTag } })).status).toBe(304);
  });

  it('a memory uploaded through one is listed, revalidated and served by the other; a deletion through one reaches the other', async () => {
    // Instance B's gallery answers 304 until something changes anywhere.
    const before = await fetch(`${b.url}/api/memory`);
    const etag = before.headers.get('etag') ?? '';
    expect(
      (await fetch(`${b.url}/api/memory`, { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);

    const png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#e64980' },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('caption', 'From instance A');
    form.append('username', 'ada');
    form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
    const posted = await fetch(`${a.url}/api/memories`, { method: 'POST', body: form });
    expect(posted.status).toBe(201);
    const [memory] = memoryPostResponseSchema.parse(await posted.json()).memories;
    if (!memory) throw new Error('no memory');

    // B's cached version hears of the change; its old tag no longer matches.
    await vi.waitFor(
      async () => {
        const poll = await fetch(`${b.url}/api/memory`, { headers: { 'if-none-match': etag } });
        expect(poll.status).toBe(200);
        expect(((await poll.json()) as { _id: string }[]).map((m) => m._id)).toContain(memory._id);
      },
      { timeout: 5000 },
    );
    // Both instances now give the same tag for the same data.
    const tagA = (await fetch(`${a.url}/api/memory`)).headers.get('etag');
    const tagB = (await fetch(`${b.url}/api/memory`)).headers.get('etag');
    expect(tagA).toBe(tagB);

    const served = await fetch(`${b.url}${memory.media}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(memory.contentType);
    const ranged = await fetch(`${b.url}${memory.media}`, { headers: { range: 'bytes=0-3' } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(4);

    // An admin token from B is good on A (shared SESSION_SECRET); deleting on A reaches B's clients.
    const token = await adminToken(b.url, PASSWORD);
    const deleted = collect(await watch(), 'memoryDeleted');
    const removal = await fetch(`${a.url}/api/media/${memory._id}`, {
      method: 'DELETE',
      headers: bearer(token),
    });
    expect(removal.status).toBe(200);
    await vi.waitFor(() => expect(deleted).toEqual([{ id: memory._id }]), { timeout: 5000 });
    expect((await fetch(`${b.url}${memory.media}`)).status).toBe(404);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('instances starting together', () => {
  it('apply the migrations once, under the migration lock', async () => {
    const url = process.env.TEST_DATABASE_URL ?? '';
    const schema = `t_together_${Date.now()}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    try {
      const apps = await Promise.all(
        [1, 2, 3].map(() =>
          startTestApp({ database: 'postgres', media: 'disk', env: { DATABASE_SCHEMA: schema } }),
        ),
      );
      const applied = await client.query<{ name: string }>(
        `select name from ${schema}.kysely_migration order by name`,
      );
      expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
      for (const app of apps) expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
      for (const app of apps) await app.close();
    } finally {
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  });
});
