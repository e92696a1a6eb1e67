import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import { memoryPostResponseSchema } from '../../shared/schemas/memory.ts';
import { type Poll, pollSchema } from '../../shared/schemas/poll.ts';
import { questionResponseSchema, questionSchema } from '../../shared/schemas/question.ts';
import { BLOCKED_WORDS_LIMITS, settingsResponseSchema } from '../../shared/schemas/settings.ts';
import { errorResponseSchema } from '../../shared/errors.ts';
import {
  addSpeaker,
  adminToken,
  call,
  forged,
  joinAttendee,
} from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { DEFAULT_BLOCKED_WORD_LIST } from './default-blocked-words.ts';

const PASSWORD = 'blocked-words-admin-password';
/** The test's own list: made-up words, so that no test needs to write a real one. */
const WORDS = ['zonk', 'blarg*', 'snorf wibble'];
const REFUSAL = /^This contains a word the organisers do not allow here/;

describe.each(testDatabases)('blocked words on %s', (database) => {
  const t = useTestApp({
    database,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '100000', LOG_LEVEL: 'error' },
  });
  let admin: string;
  let grace: string;
  let speakerId: string;

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
    grace = await joinAttendee(t.url, 'grace');
    speakerId = (await addSpeaker(t.url, 'Ada Lovelace'))._id;
    const pace = await call(t.url, 'PUT', '/api/admin/settings', {
      token: admin,
      body: { questionsPerMinute: 600 },
    });
    expect(pace.status).toBe(200);
  });

  const settings = async () =>
    settingsResponseSchema.parse(
      await (await call(t.url, 'GET', '/api/admin/settings', { token: admin })).json(),
    );
  const setAction = async (action: 'hold' | 'block' | 'mask', words = WORDS) => {
    const response = await call(t.url, 'PUT', '/api/admin/settings', {
      token: admin,
      body: { blockedWords: { words, action } },
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const refusal = async (response: Response, pattern = REFUSAL) => {
    expect(response.status).toBe(422);
    const body = errorResponseSchema.parse(await response.json());
    expect(body.code).toBe('BLOCKED_WORDS');
    expect(body.error).toMatch(pattern);
    expect(body.error).not.toMatch(/zonk|blarg|snorf|wibble/i);
  };
  const count = async (table: 'questions' | 'memories' | 'poll_responses' | 'attendees') =>
    Number(
      (
        await t.app.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('the settings', () => {
    it('start with the shipped list, held, and GET /api/config does not show it', async () => {
      const read = await settings();
      expect(read.blockedWords).toEqual({ words: DEFAULT_BLOCKED_WORD_LIST, action: 'hold' });
      const config = await (await fetch(`${t.url}/api/config`)).text();
      expect(publicConfigSchema.parse(JSON.parse(config))).not.toHaveProperty('blockedWords');
      expect(config).not.toContain('motherfuck');
    });

    it('take a list and an action, blank entries and repeats dropped', async () => {
      await setAction('block', [' zonk ', '', 'zonk', 'blarg*', 'snorf wibble']);
      expect((await settings()).blockedWords).toEqual({ words: WORDS, action: 'block' });
    });

    it('refuse a list too long, a word too long or malformed, a wrong action, with a 400', async () => {
      await setAction('hold');
      const cases: unknown[] = [
        {
          words: Array.from({ length: BLOCKED_WORDS_LIMITS.words + 1 }, (_, i) => `w${i}`),
          action: 'hold',
        },
        { words: ['x'.repeat(BLOCKED_WORDS_LIMITS.length + 1)], action: 'hold' },
        { words: ['f*ck'], action: 'hold' },
        { words: ['*'], action: 'hold' },
        { words: ['!!!'], action: 'hold' },
        { words: 'zonk', action: 'hold' },
        { words: [42], action: 'hold' },
        { words: ['zonk'], action: 'delete' },
        { words: ['zonk'] },
        { action: 'block' },
        null,
      ];
      for (const blockedWords of cases) {
        const response = await call(t.url, 'PUT', '/api/admin/settings', {
          token: admin,
          body: { blockedWords },
        });
        expect(response.status, JSON.stringify(blockedWords).slice(0, 80)).toBe(400);
        expect(errorResponseSchema.safeParse(await response.json()).success).toBe(true);
      }
      // A body past the route's size limit: 413, in the one error shape.
      const huge = await call(t.url, 'PUT', '/api/admin/settings', {
        token: admin,
        body: { blockedWords: { words: ['x'.repeat(300_000)], action: 'block' } },
      });
      expect(huge.status).toBe(413);
      expect(errorResponseSchema.safeParse(await huge.json()).success).toBe(true);
      expect((await settings()).blockedWords).toEqual({ words: WORDS, action: 'hold' });
    });

    it('refuse a change without the admin’s token, with a forged one, or an attendee’s', async () => {
      const body = { blockedWords: { words: [], action: 'mask' } };
      for (const token of [undefined, forged(admin), grace, 'nonsense']) {
        const response = await call(t.url, 'PUT', '/api/admin/settings', { token, body });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(errorResponseSchema.safeParse(await response.json()).success).toBe(true);
      }
      expect((await settings()).blockedWords.words).toEqual(WORDS);
    });
  });

  describe('questions', () => {
    const ask = (question: string) =>
      call(t.url, 'POST', '/questions', {
        token: grace,
        body: { speakerId, question, askerUsername: 'grace' },
      });

    it('hold: the question waits for the admin', async () => {
      await setAction('hold');
      const response = await ask('Is the ZONK ready?');
      expect(response.status).toBe(201);
      expect(questionSchema.parse(await response.json())).toMatchObject({
        status: 'pending',
        question: 'Is the ZONK ready?',
      });
      const clean = questionSchema.parse(await (await ask('Is the demo ready?')).json());
      expect(clean.status).toBe('published');
    });

    it('block: a 422 naming no word, and nothing stored', async () => {
      await setAction('block');
      const before = await count('questions');
      await refusal(await ask('What about b.l.a.r.g.s?'));
      await refusal(await ask('Snorf,  WIBBLE!'));
      await refusal(await ask('zо\u200bnk')); // A Cyrillic о and a zero-width space.
      expect(await count('questions')).toBe(before);
    });

    it('mask: stored with the word starred', async () => {
      await setAction('mask');
      const response = await ask('Why zonk and blargness?');
      expect(response.status).toBe(201);
      expect(questionSchema.parse(await response.json())).toMatchObject({
        status: 'published',
        question: 'Why **** and *********?',
      });
    });
  });

  describe('written answers', () => {
    it('hold and block refuse the answer and keep the old one; mask stars it', async () => {
      await setAction('block');
      const asked = await call(t.url, 'POST', '/questions', {
        token: grace,
        body: { speakerId, question: 'How are answers written?', askerUsername: 'grace' },
      });
      expect(asked.status, await asked.clone().text()).toBe(201);
      const question = questionSchema.parse(await asked.json());
      const answer = (text: string) =>
        call(t.url, 'PATCH', `/api/questions/${question._id}`, {
          token: admin,
          body: { answer: text },
        });
      const written = await answer('With care.');
      expect(written.status, await written.clone().text()).toBe(200);
      expect(questionResponseSchema.parse(await written.json()).question.answer).toBe('With care.');
      for (const action of ['block', 'hold'] as const) {
        await setAction(action);
        await refusal(await answer('With a zonk.'));
      }
      const stored = await call(t.url, 'GET', `/api/questions/realtime?speakerId=${speakerId}`);
      const list = (await stored.json()) as { _id: string; answer: string | null }[];
      expect(list.find((one) => one._id === question._id)?.answer).toBe('With care.');
      await setAction('mask');
      const masked = await answer('With a zonk.');
      expect(questionResponseSchema.parse(await masked.json()).question.answer).toBe(
        'With a ****.',
      );
    });
  });

  describe('captions', () => {
    const postMemory = async (caption: string) => {
      const form = new FormData();
      form.append('caption', caption);
      form.append('username', 'grace');
      const png = await sharp({
        create: { width: 32, height: 24, channels: 3, background: '#2f9e44' },
      })
        .png()
        .toBuffer();
      form.append('files', new Blob([new Uint8Array(png)]), 'photo.png');
      return fetch(`${t.url}/api/memories`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${grace}`, 'x-confab-user': 'grace' },
      });
    };

    it('hold: pending; block: 422 with no file or row left; mask: starred', async () => {
      await setAction('hold');
      const held = await postMemory('A zonk at the stand');
      expect(held.status).toBe(201);
      const [pending] = memoryPostResponseSchema.parse(await held.json()).memories;
      expect(pending?.status).toBe('pending');

      await setAction('block');
      const rows = await count('memories');
      const files = (await t.storedMediaKeys()).length;
      await refusal(await postMemory('Blarg!'));
      // A resumable upload is refused before any byte is sent.
      const b64 = (text: string) => Buffer.from(text).toString('base64');
      const upload = await fetch(`${t.url}/api/uploads`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${grace}`,
          'tus-resumable': '1.0.0',
          'upload-length': '1000',
          'upload-metadata': `filename ${b64('a.png')},filetype ${b64('image/png')},caption ${b64('so blarg')},username ${b64('grace')}`,
        },
      });
      await refusal(upload);
      expect(await count('memories')).toBe(rows);
      expect((await t.storedMediaKeys()).length).toBe(files);

      await setAction('mask');
      const masked = await postMemory('zonk zonk, hello');
      expect(masked.status).toBe(201);
      const [starred] = memoryPostResponseSchema.parse(await masked.json()).memories;
      expect(starred).toMatchObject({ status: 'published', text: '**** ****, hello' });
    });
  });

  describe('usernames', () => {
    it('a name with a blocked word is refused whatever the action', async () => {
      for (const action of ['hold', 'block', 'mask'] as const) {
        await setAction(action);
        const before = await count('attendees');
        const response = await call(t.url, 'POST', '/api/attendees', {
          body: { username: `Z O N K ${action}` },
        });
        await refusal(response, /^This name contains a word the organisers do not allow/);
        expect(await count('attendees')).toBe(before);
      }
      expect(await joinAttendee(t.url, 'zonkers fan')).toEqual(expect.any(String));
    });

    it('a name given without a token, with a question or a memory, is refused too', async () => {
      await setAction('mask');
      const questions = await count('questions');
      const asked = await call(t.url, 'POST', '/questions', {
        body: { speakerId, question: 'Is the demo ready?', askerUsername: 'big zonk' },
      });
      await refusal(asked, /^This name contains a word the organisers do not allow/);
      expect(await count('questions')).toBe(questions);

      const memories = await count('memories');
      const files = (await t.storedMediaKeys()).length;
      const form = new FormData();
      form.append('caption', 'Hello');
      form.append('username', 'zonk');
      const png = await sharp({
        create: { width: 16, height: 16, channels: 3, background: '#1c7ed6' },
      })
        .png()
        .toBuffer();
      form.append('files', new Blob([new Uint8Array(png)]), 'photo.png');
      const posted = await fetch(`${t.url}/api/memories`, { method: 'POST', body: form });
      await refusal(posted, /^This name contains a word the organisers do not allow/);
      expect(await count('memories')).toBe(memories);
      expect((await t.storedMediaKeys()).length).toBe(files);
    });
  });

  describe('poll answers', () => {
    const open = async (type: 'open' | 'wordcloud'): Promise<Poll> => {
      const created = await call(t.url, 'POST', '/api/polls', {
        token: admin,
        body: { title: `Say it (${type})`, type },
      });
      const poll = pollSchema.parse(await created.json());
      const opened = await call(t.url, 'PATCH', `/api/polls/${poll._id}`, {
        token: admin,
        body: { state: 'open', resultsVisible: true },
      });
      return pollSchema.parse(await opened.json());
    };
    const vote = (poll: Poll, text: string, token = grace) =>
      call(t.url, 'PUT', `/api/polls/${poll._id}/vote`, { token, body: { text } });
    const results = async (poll: Poll, token?: string) => {
      const response = await call(t.url, 'GET', `/api/polls?event`, { token });
      const polls = (await response.json()) as Poll[];
      return polls.find((one) => one._id === poll._id)?.results;
    };

    it('word cloud: held or starred, the word is left out; blocked, the answer is a 422', async () => {
      await setAction('hold');
      const cloud = await open('wordcloud');
      expect((await vote(cloud, 'rust, zonk, blargh')).status).toBe(200);
      expect(await results(cloud)).toEqual({ words: [{ text: 'rust', count: 1 }] });
      await setAction('mask');
      expect((await vote(cloud, 'zonk, types')).status).toBe(200);
      expect(await results(cloud)).toEqual({ words: [{ text: 'types', count: 1 }] });
      await setAction('block');
      const before = await count('poll_responses');
      await refusal(await vote(cloud, 'speed, zonk', await joinAttendee(t.url, 'ivy')));
      expect(await count('poll_responses')).toBe(before);
    });

    it('open: hold hides it for the owners, mask stars it, block refuses it', async () => {
      const poll = await open('open');
      await setAction('hold');
      expect((await vote(poll, 'A zonk idea')).status).toBe(200);
      expect(await results(poll)).toEqual({ answers: [] });
      expect(await results(poll, admin)).toMatchObject({
        answers: [{ text: 'A zonk idea', hidden: true }],
      });
      await setAction('mask');
      const linus = await joinAttendee(t.url, 'linus');
      expect((await vote(poll, 'More zonk please', linus)).status).toBe(200);
      expect(await results(poll)).toMatchObject({ answers: [{ text: 'More **** please' }] });
      await setAction('block');
      const before = await count('poll_responses');
      await refusal(await vote(poll, 'snorf wibble', await joinAttendee(t.url, 'mary')));
      expect(await count('poll_responses')).toBe(before);
    });
  });
});
