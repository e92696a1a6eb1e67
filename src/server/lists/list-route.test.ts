import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedMemories } from '../../../tests/support/seed-memories.ts';
import type { Question } from '../../shared/schemas/question.ts';
import { newId } from '../lib/ids.ts';
import { insertQuestion } from '../questions/question.repository.ts';
import { type RawAnswer, rawGet } from '../../../tests/support/raw-http.ts';
import { addSpeaker, askQuestion } from '../../../tests/support/speakers.ts';
import { useTestApp } from '../../../tests/support/test-app.ts';
import { readListAnswer } from './list-route.ts';

describe('list routes (the polled gallery, speakers, question lists and dashboard)', () => {
  let gallery: string;
  const t = useTestApp();
  beforeAll(async () => {
    await seedMemories(
      t.app.deps,
      Array.from({ length: 12 }, (_, i) => ({ username: `guest${i}`, text: `Moment ${i}` })),
    );
    gallery = `${t.url}/api/memory?limit=60`;
  });

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

  it('answers from a body made already exactly as it answered while making it', async () => {
    await seedMemories(t.app.deps, [{ username: 'fresh', text: 'A new version' }]);
    const headersOf = (answer: RawAnswer) => {
      const { date: _date, ...rest } = answer.headers;
      return rest;
    };
    const accepts: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip, deflate, br' }];
    for (const accept of accepts) {
      const [making, alsoWaiting] = await Promise.all([
        rawGet(gallery, accept),
        rawGet(gallery, accept),
      ]);
      const made = await rawGet(gallery, accept);
      for (const answer of [alsoWaiting, made]) {
        expect(answer.status).toBe(200);
        expect(headersOf(answer)).toEqual(headersOf(making));
        expect(answer.body.equals(making.body)).toBe(true);
      }
    }
  });

  it('answers 304 to the holder of the current tag, and the new list after a change', async () => {
    const first = await rawGet(gallery, {});
    const tag = String(first.headers.etag);
    const again = await rawGet(gallery, { 'if-none-match': tag, 'accept-encoding': 'br' });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.vary).toMatch(/accept-encoding/i);

    await seedMemories(t.app.deps, [{ username: 'late', text: 'The closing party' }]);
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
        askerUsername: `net${i}`,
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
    await insertQuestion(
      t.app.deps.db,
      {
        ...held,
        askerUsername: held.askerUsername ?? '',
        _id: newId(),
        question: 'Written directly',
      },
      undefined,
    );
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

  it('reads a list by its address for a page: the same JSON and tag a GET gets', async () => {
    const speaker = await addSpeaker(t.url, 'Barbara Liskov');
    await askQuestion(t.url, {
      speakerId: speaker._id,
      question: 'Read for the page?',
      askerUsername: 'ada',
    });
    for (const url of [
      '/api/memory?limit=60',
      '/api/speakerscard',
      `/api/questions/realtime?speakerId=${speaker._id}&limit=200`,
    ]) {
      const read = await readListAnswer(t.app.deps.lists, url);
      const got = await rawGet(`${t.url}${url}`, {});
      expect(read, url).toEqual({ tag: got.headers.etag, json: got.body.toString() });
    }
    // Only what a list route answers from its address alone.
    for (const url of [
      '/api/memory?limit=0',
      '/api/memory?limit=abc',
      '/api/no-such-list',
      `/api/speakers/${speaker.username}/dashboard`,
      '/api/health',
    ]) {
      expect(await readListAnswer(t.app.deps.lists, url), url).toBeUndefined();
    }
  });
});
