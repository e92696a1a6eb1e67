import path from 'node:path';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database.ts';
import { DiskMediaStore } from '../media/disk-media-store.ts';
import { seedMemories } from '../test/seed-memories.ts';
import type { Question } from '../../shared/schemas/question.ts';
import { newId } from '../lib/ids.ts';
import { insertQuestion } from '../questions/question.repository.ts';
import { rawGet } from '../test/raw-http.ts';
import { addSpeaker, askQuestion } from '../test/speakers.ts';
import { type TestApp, startTestApp } from '../test/test-app.ts';

describe('hot lists (the polled gallery page, speakers list and question lists)', () => {
  let t: TestApp;
  let gallery: string;
  beforeAll(async () => {
    t = await startTestApp();
    await seedMemories(
      t.app.deps,
      Array.from({ length: 12 }, (_, i) => ({ username: `guest${i}`, text: `Moment ${i}` })),
    );
    await t.app.deps.memoryListVersion.changed();
    gallery = `${t.url}/api/memory?limit=60`;
  });
  afterAll(() => t.close());

  it('compresses the list with the encoding the client prefers, same JSON in each', async () => {
    const plain = await rawGet(gallery, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.headers['content-type']).toMatch(/application\/json/);
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.body.length).toBeGreaterThan(1024);
    const list = JSON.parse(plain.body.toString()) as { text: string }[];
    expect(list.map((m) => m.text)).toContain('Moment 11');

    const br = await rawGet(gallery, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

    const gz = await rawGet(gallery, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.headers.etag).toBe(plain.headers.etag);
  });

  it('answers 304 to the holder of the current tag, and the new list after a change', async () => {
    const first = await rawGet(gallery, {});
    const tag = String(first.headers.etag);
    const again = await rawGet(gallery, { 'if-none-match': tag, 'accept-encoding': 'br' });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.vary).toMatch(/accept-encoding/i);

    await seedMemories(t.app.deps, [{ username: 'late', text: 'The closing party' }]);
    await t.app.deps.memoryListVersion.changed();
    const changed = await rawGet(gallery, { 'if-none-match': tag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    expect((JSON.parse(changed.body.toString()) as { text: string }[])[0]?.text).toBe(
      'The closing party',
    );
  });

  it('gives the same answer as the framework route for the same page', async () => {
    const hot = await rawGet(gallery, {});
    // A query the fast path does not know goes through the framework: same rows, same tag.
    const routed = await rawGet(`${t.url}/api/memory?limit=60&`, {});
    expect(routed.status).toBe(200);
    expect(routed.headers.etag).toBe(hot.headers.etag);
    expect(routed.body.toString()).toBe(hot.body.toString());
    const speakers = await rawGet(`${t.url}/speakers`, {});
    const card = await rawGet(`${t.url}/api/speakerscard`, {});
    expect(speakers.status).toBe(200);
    expect(card.headers.etag).toBe(speakers.headers.etag);
    const routedSpeakers = await rawGet(`${t.url}/speakers?`, {});
    expect(routedSpeakers.status).toBe(200);
    expect(routedSpeakers.headers.etag).toBe(speakers.headers.etag);
    expect(routedSpeakers.body.toString()).toBe(speakers.body.toString());
  });

  it('answers a question list from memory once its version is known, and a bad query through the app', async () => {
    const speaker = await addSpeaker(t.url, 'Radia Perlman');
    for (let i = 0; i < 30; i += 1) {
      await askQuestion(t.url, {
        speakerId: speaker._id,
        question: `How does spanning tree ${i} converge, and what does it cost?`,
        askerUsername: 'net',
      });
    }
    const poll = `${t.url}/api/questions/realtime?speakerId=${speaker._id}&limit=200`;
    // The first poll learns the version through the app; the next are answered before it.
    const routed = await rawGet(poll, {});
    const hot = await rawGet(poll, {});
    expect(hot.status).toBe(200);
    expect(hot.headers.etag).toBe(routed.headers.etag);
    expect(hot.body.toString()).toBe(routed.body.toString());
    expect(hot.headers['x-content-type-options']).toBe('nosniff');
    const br = await rawGet(poll, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(hot.body)).toBe(true);
    // The same query spelt otherwise is the same list.
    const reordered = await rawGet(
      `${t.url}/api/questions/realtime?limit=200&speakerId=${speaker._id.toUpperCase()}`,
      {},
    );
    expect(reordered.headers.etag).toBe(hot.headers.etag);

    // The version is kept in memory: a row written through the server's own connection but not
    // through the app goes unseen…
    const tag = String(hot.headers.etag);
    const [held] = JSON.parse(hot.body.toString()) as Question[];
    if (!held) throw new Error('no question listed');
    await insertQuestion(t.app.deps.db, { ...held, _id: newId(), question: 'Written directly' });
    expect((await rawGet(poll, { 'if-none-match': tag })).status).toBe(304);
    // …until a question is asked through the app, which changes that speaker's lists.
    await askQuestion(t.url, {
      speakerId: speaker._id,
      question: 'And IS-IS?',
      askerUsername: 'n',
    });
    const changed = await rawGet(poll, { 'if-none-match': tag });
    expect(changed.status).toBe(200);
    expect(
      (JSON.parse(changed.body.toString()) as Question[]).slice(-2).map((q) => q.question),
    ).toEqual(['Written directly', 'And IS-IS?']);

    // A repeated or invalid parameter is the app's to refuse.
    for (const query of [`speakerId=${speaker._id}&speakerId=${speaker._id}`, 'limit=abc']) {
      const refused = await rawGet(`${t.url}/api/questions/realtime?${query}`, {});
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body.toString())).toHaveProperty('error');
    }
  });

  it('sees rows another connection committed to the SQLite file, even with no write here', async () => {
    const before = await rawGet(gallery, {});
    const tag = String(before.headers.etag);
    expect((await rawGet(gallery, { 'if-none-match': tag })).status).toBe(304);

    // Another process on the same file (a maintenance script, a test's seeding): the server
    // is not told, and its version in memory has not moved.
    const sqlite = new SQLite(path.join(t.dataDir, 'confab.sqlite'));
    const other = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      await seedMemories({ db: other, media: new DiskMediaStore(path.join(t.dataDir, 'media')) }, [
        { username: 'elsewhere', text: 'Stored by another process' },
      ]);
    } finally {
      await other.destroy();
    }

    // Seen by a poll at most 10 ms later (the file's commit count is read that often).
    const polled = await vi.waitFor(
      async () => {
        const answer = await rawGet(gallery, { 'if-none-match': tag });
        expect(answer.status).toBe(200);
        return answer;
      },
      { timeout: 2000, interval: 20 },
    );
    expect(polled.headers.etag).not.toBe(tag);
    const list = JSON.parse(polled.body.toString()) as { text: string }[];
    expect(list[0]?.text).toBe('Stored by another process');
    // A first visit (no tag held) gets the new list too, not the one kept for the old version.
    const fresh = JSON.parse((await rawGet(gallery, {})).body.toString()) as { text: string }[];
    expect(fresh[0]?.text).toBe('Stored by another process');
    expect((await rawGet(`${t.url}/api/memory?limit=60&`, {})).headers.etag).toBe(
      polled.headers.etag,
    );
  });

  it('sees questions another connection committed to the SQLite file', async () => {
    const speaker = await addSpeaker(t.url, 'Sophie Wilson');
    const asked = await askQuestion(t.url, {
      speakerId: speaker._id,
      question: 'How many transistors?',
      askerUsername: 'arm',
    });
    const poll = `${t.url}/api/questions/realtime?speakerId=${speaker._id}`;
    await rawGet(poll, {});
    const tag = String((await rawGet(poll, {})).headers.etag);
    expect((await rawGet(poll, { 'if-none-match': tag })).status).toBe(304);

    const sqlite = new SQLite(path.join(t.dataDir, 'confab.sqlite'));
    const other = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      await insertQuestion(other, { ...asked, _id: newId(), question: 'Stored elsewhere' });
    } finally {
      await other.destroy();
    }

    // Seen by a poll at most 10 ms later (the file's commit count is read that often).
    await vi.waitFor(
      async () => {
        const polled = await rawGet(poll, { 'if-none-match': tag });
        expect(polled.status).toBe(200);
        expect((JSON.parse(polled.body.toString()) as Question[]).map((q) => q.question)).toEqual([
          'How many transistors?',
          'Stored elsewhere',
        ]);
      },
      { timeout: 2000, interval: 20 },
    );
  });
});
