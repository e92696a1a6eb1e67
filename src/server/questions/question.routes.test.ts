import { beforeAll, describe, expect, it } from 'vitest';
import { newQuestionEventSchema } from '../../shared/events.ts';
import {
  type Question,
  questionListSchema,
  questionSchema,
} from '../../shared/schemas/question.ts';
import type { Speaker } from '../../shared/schemas/speaker.ts';
import { newId } from '../lib/ids.ts';
import { addSpeaker, askQuestion, collect, errorOf } from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';
import { idAfter } from './question.service.ts';

const post = (url: string, body: unknown, contentType = 'application/json') =>
  fetch(`${url}/questions`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function list(url: string, query = ''): Promise<Question[]> {
  const response = await fetch(`${url}/api/questions/realtime${query}`);
  expect(response.status, query).toBe(200);
  return questionListSchema.parse(await response.json());
}

describe.each(testDatabases)('question routes on %s', (database) => {
  let ada: Speaker;
  let alan: Speaker;

  const t = useTestApp({ database });
  const watch = useWatchingSockets(t);
  beforeAll(async () => {
    ada = await addSpeaker(t.url, 'Ada Lovelace');
    alan = await addSpeaker(t.url, 'Alan Turing');
  });

  describe('POST /questions', () => {
    it('stores the question and answers 201 with it, under the speaker’s own name', async () => {
      const response = await post(t.url, {
        speakerId: ada._id,
        speakerName: 'Someone pretending',
        question: '  How did you\nthink of loops?  ',
        askerUsername: ' grace ',
      });
      expect(response.status).toBe(201);
      const question = questionSchema.parse(await response.json());
      expect(question).toMatchObject({
        speakerId: ada._id,
        speakerName: 'Ada Lovelace',
        askerUsername: 'grace',
        question: 'How did you\nthink of loops?',
      });
      expect(Date.parse(question.createdAt)).not.toBeNaN();
      const stored = await list(t.url, `?speakerId=${ada._id}`);
      expect(stored.at(-1)).toEqual(question);
    });

    it('accepts a question of exactly 1,000 characters and without speakerName', async () => {
      const text = 'q'.repeat(1000);
      const question = await askQuestion(t.url, {
        speakerId: alan._id,
        question: text,
        askerUsername: 'x',
      });
      expect(question.question).toBe(text);
    });

    it('rejects bad input with a 400 and stores nothing', async () => {
      const countBefore = (await list(t.url, '?limit=200')).length;
      const valid = { speakerId: ada._id, question: 'Why?', askerUsername: 'grace' };
      const cases: [unknown, RegExp][] = [
        [{ ...valid, question: undefined }, /Question is required/],
        [{ ...valid, question: '' }, /Question is required/],
        [{ ...valid, question: ' \n\t ' }, /Question is required/],
        [{ ...valid, question: 'q'.repeat(1001) }, /at most 1000 characters/],
        [{ ...valid, question: 42 }, /Question is required/],
        [{ ...valid, question: 'bell\u0007' }, /not allowed/],
        [{ ...valid, speakerId: undefined }, /Speaker is required/],
        [{ ...valid, speakerId: 'ada' }, /Unknown speaker id/],
        [{ ...valid, speakerId: 7 }, /speaker/i],
        [{ ...valid, askerUsername: undefined }, /Username is required/],
        [{ ...valid, askerUsername: '  ' }, /Username is required/],
        [{ ...valid, askerUsername: 'u'.repeat(41) }, /at most 40 characters/],
        [{ ...valid, speakerName: ['x'] }, /speakerName/],
        [[valid], /./],
        ['null', /./],
        ['{"speakerId":', /./],
      ];
      for (const [body, message] of cases) {
        const response = await post(t.url, body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(await errorOf(response), JSON.stringify(body)).toMatch(message);
      }
      const form = await post(t.url, 'question=hi', 'application/x-www-form-urlencoded');
      expect(form.status).toBe(415);
      await errorOf(form);
      expect(await list(t.url, '?limit=200')).toHaveLength(countBefore);
    });

    it('answers 404 for a speaker that does not exist', async () => {
      const response = await post(t.url, {
        speakerId: newId(),
        question: 'Anyone there?',
        askerUsername: 'grace',
      });
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toBe('Speaker not found');
    });

    it('pushes newQuestion to the clients watching that speaker and the questions room only', async () => {
      const watchingAda = await watch([{ room: 'speaker', speakerId: ada._id }]);
      const watchingAlan = await watch([{ room: 'speaker', speakerId: alan._id }]);
      const watchingAll = await watch([{ room: 'questions' }]);
      const watchingNothing = await watch();
      const adaEvents = collect(watchingAda, 'newQuestion');
      const alanEvents = collect(watchingAlan, 'newQuestion');
      const allEvents = collect(watchingAll, 'newQuestion');
      const nothingEvents = collect(watchingNothing, 'newQuestion');

      const forAda = await askQuestion(t.url, {
        speakerId: ada._id,
        question: 'For Ada',
        askerUsername: 'a',
      });
      const forAlan = await askQuestion(t.url, {
        speakerId: alan._id,
        question: 'For Alan',
        askerUsername: 'b',
      });
      await expect.poll(() => allEvents.length).toBe(2);
      await expect.poll(() => alanEvents.length).toBe(1);
      await expect.poll(() => adaEvents.length).toBe(1);
      // Events of one connection arrive in order: Alan's came after Ada's, so Ada's would be here.
      expect(alanEvents.map((e) => e.question._id)).toEqual([forAlan._id]);
      expect(adaEvents).toEqual([{ speakerId: ada._id, question: forAda }]);
      expect(allEvents.map((e) => newQuestionEventSchema.parse(e).question)).toEqual([
        forAda,
        forAlan,
      ]);

      // A client that stops watching gets nothing more; one that watches everything still does.
      await watchingAda.emitWithAck('unwatch', { room: 'speaker', speakerId: ada._id });
      await watchingNothing.emitWithAck('watch', { room: 'questions' });
      expect(await t.app.deps.realtime.io.in('questions').fetchSockets()).toHaveLength(2);
      expect(await t.app.deps.realtime.io.in(`speaker:${ada._id}`).fetchSockets()).toHaveLength(0);
      await askQuestion(t.url, { speakerId: ada._id, question: 'Again', askerUsername: 'a' });
      await expect.poll(() => nothingEvents.length).toBe(1);
      await expect.poll(() => allEvents.length).toBe(3);
      expect(adaEvents).toHaveLength(1);
    });
  });

  describe('GET /api/questions/realtime', () => {
    let speaker: Speaker;
    let asked: Question[];
    beforeAll(async () => {
      speaker = await addSpeaker(t.url, 'Barbara Liskov');
      asked = [];
      for (const text of ['one', 'two', 'three', 'four']) {
        asked.push(
          await askQuestion(t.url, { speakerId: speaker._id, question: text, askerUsername: 'u' }),
        );
      }
    });

    it("answers one speaker's questions oldest first", async () => {
      expect(await list(t.url, `?speakerId=${speaker._id}`)).toEqual(asked);
      expect(await list(t.url, `?speakerId=${speaker._id.toUpperCase()}`)).toEqual(asked);
      expect(await list(t.url, `?speakerId=${newId()}`)).toEqual([]);
    });

    it('answers the recent questions of every speaker without speakerId', async () => {
      const all = await list(t.url);
      expect(all.slice(-4)).toEqual(asked);
      expect(new Set(all.map((q) => q.speakerId)).size).toBeGreaterThan(1);
      const ids = all.map((q) => q._id);
      expect(ids).toEqual([...ids].sort());
      const latestTwo = await list(t.url, '?limit=2');
      expect(latestTwo).toEqual(asked.slice(-2));
    });

    it('keeps only newer questions with since (an id or a time), older ones with before', async () => {
      const [first, second, third, fourth] = asked as [Question, Question, Question, Question];
      expect(await list(t.url, `?speakerId=${speaker._id}&since=${second._id}`)).toEqual([
        third,
        fourth,
      ]);
      expect(await list(t.url, `?speakerId=${speaker._id}&since=${fourth._id}`)).toEqual([]);
      expect(await list(t.url, `?speakerId=${speaker._id}&since=${first._id}&limit=2`)).toEqual([
        second,
        third,
      ]);
      expect(await list(t.url, `?speakerId=${speaker._id}&before=${third._id}`)).toEqual([
        first,
        second,
      ]);
      const longAgo = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
      expect(await list(t.url, `?speakerId=${speaker._id}&since=${longAgo}`)).toEqual(asked);
      const withOffset = encodeURIComponent('2000-01-01T01:00:00+01:00');
      expect(await list(t.url, `?speakerId=${speaker._id}&since=${withOffset}`)).toEqual(asked);
      const future = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
      expect(await list(t.url, `?since=${future}`)).toEqual([]);
    });

    it("answers one attendee's questions with askerUsername", async () => {
      const mine = await askQuestion(t.url, {
        speakerId: alan._id,
        question: 'Mine?',
        askerUsername: 'Only Me',
      });
      expect(await list(t.url, '?askerUsername=Only%20Me')).toEqual([mine]);
      expect(await list(t.url, `?askerUsername=Only%20Me&speakerId=${ada._id}`)).toEqual([]);
      expect(await list(t.url, '?askerUsername=only%20me')).toEqual([]);
    });

    it('answers 304 to a poll that finds nothing new, and 200 once there is', async () => {
      const path = `${t.url}/api/questions/realtime?speakerId=${speaker._id}`;
      const first = await fetch(path);
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^W\/".+"$/);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      const again = await fetch(path, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      // A different query is a different list, with its own tag.
      const other = await fetch(`${path}&limit=1`, { headers: { 'if-none-match': etag } });
      expect(other.status).toBe(200);
      // Another speaker's question leaves this list (and its tag) alone.
      await askQuestion(t.url, { speakerId: ada._id, question: 'Elsewhere', askerUsername: 'z' });
      expect((await fetch(path, { headers: { 'if-none-match': etag } })).status).toBe(304);
      const added = await askQuestion(t.url, {
        speakerId: speaker._id,
        question: 'five',
        askerUsername: 'u',
      });
      const changed = await fetch(path, { headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(questionListSchema.parse(await changed.json()).at(-1)).toEqual(added);
    });

    it('rejects bad parameters with a 400', async () => {
      for (const query of [
        '?speakerId=nope',
        '?since=yesterday',
        '?since=2026-13-45T00:00:00Z',
        '?before=5',
        '?limit=0',
        '?limit=201',
        '?limit=abc',
        '?askerUsername=',
        `?askerUsername=${'u'.repeat(41)}`,
      ]) {
        const response = await fetch(`${t.url}/api/questions/realtime${query}`);
        expect(response.status, query).toBe(400);
        await errorOf(response);
      }
    });
  });
});

describe('idAfter', () => {
  it('keeps an id, and turns a time into the largest id of that millisecond', () => {
    const id = newId();
    expect(idAfter(id.toUpperCase())).toBe(id);
    const ms = Date.parse('2026-11-22T10:00:00.000Z');
    const bound = idAfter('2026-11-22T10:00:00.000Z');
    expect(bound.replace(/-/g, '').slice(0, 12)).toBe(ms.toString(16).padStart(12, '0'));
    expect(bound.slice(13)).toBe('-ffff-ffff-ffffffffffff');
    expect(idAfter('1960-01-01T00:00:00Z').startsWith('00000000-0000-')).toBe(true);
  });
});
