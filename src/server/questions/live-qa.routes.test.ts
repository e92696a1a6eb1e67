import { beforeAll, describe, expect, it } from 'vitest';
import { questionUpdatedEventSchema } from '../../shared/events.ts';
import { DEFAULT_REACTIONS } from '../../shared/schemas/reaction.ts';
import {
  type Question,
  questionListSchema,
  questionResponseSchema,
  questionSchema,
} from '../../shared/schemas/question.ts';
import type { Speaker } from '../../shared/schemas/speaker.ts';
import { speakerDashboardSchema } from '../../shared/schemas/speaker.ts';
import { newId } from '../lib/ids.ts';
import {
  addSpeakerWithSecret,
  adminToken,
  askQuestion,
  call,
  collect,
  errorOf,
  forged,
  joinAttendee,
  speakerToken,
} from '../../../tests/support/speakers.ts';
import {
  startTestApp,
  testDatabases,
  useTestApp,
  useWatchingSockets,
} from '../../../tests/support/test-app.ts';
import { DEFAULT_BLOCKED_WORD_LIST } from '../moderation/default-blocked-words.ts';

const PASSWORD = 'live-room-admin-password';

async function publicList(url: string, query: string): Promise<Question[]> {
  const response = await fetch(`${url}/api/questions/realtime${query}`);
  expect(response.status).toBe(200);
  return questionListSchema.parse(await response.json());
}

async function adminList(url: string, token: string, query = ''): Promise<Question[]> {
  const response = await call(url, 'GET', `/api/admin/questions${query}`, { token });
  expect(response.status).toBe(200);
  return questionListSchema.parse(await response.json());
}

describe.each(testDatabases)('the live room on %s', (database) => {
  const t = useTestApp({
    database,
    env: { ADMIN_PASSWORD: PASSWORD, QUESTIONS_PER_MINUTE: '600' },
  });
  const watch = useWatchingSockets(t);
  let admin: string;
  let ada: { speaker: Speaker; secret: string; token: string };
  let alan: { speaker: Speaker; secret: string; token: string };
  let grace: string;
  let linus: string;
  const watchSpeaker = (speaker: Speaker) => watch([{ room: 'speaker', speakerId: speaker._id }]);

  const signUp = async (name: string) => {
    const { speaker, secret } = await addSpeakerWithSecret(t.url, name);
    return { speaker, secret, token: await speakerToken(t.url, speaker.username, secret) };
  };
  const ask = (speaker: Speaker, text: string, token?: string, asker = 'grace') =>
    call(t.url, 'POST', '/questions', {
      token,
      body: { speakerId: speaker._id, question: text, askerUsername: asker },
    });
  /** A question to `speaker` from `asker`, without a token: the question stored. */
  const asked = (speaker: Speaker, text: string, asker: string) =>
    askQuestion(t.url, { speakerId: speaker._id, question: text, askerUsername: asker });

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
    ada = await signUp('Ada Lovelace');
    alan = await signUp('Alan Turing');
    grace = await joinAttendee(t.url, 'grace');
    linus = await joinAttendee(t.url, 'linus');
  });

  describe('POST /api/attendees', () => {
    it('answers 201 with the username and a token, and 400 for bad input', async () => {
      const response = await call(t.url, 'POST', '/api/attendees', { body: { username: ' ann ' } });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { username: string; token: string };
      expect(body.username).toBe('ann');
      expect(body.token.split('.')).toHaveLength(3);
      for (const bad of [{}, { username: '' }, { username: 'x'.repeat(41) }, { username: 3 }]) {
        const refused = await call(t.url, 'POST', '/api/attendees', { body: bad });
        expect(refused.status, JSON.stringify(bad)).toBe(400);
        await errorOf(refused);
      }
      const broken = await call(t.url, 'POST', '/api/attendees', { raw: '{"username":' });
      expect(broken.status).toBe(400);
    });
  });

  describe('votes', () => {
    it('counts one vote per attendee, idempotently, and takes it back', async () => {
      const question = questionSchema.parse(
        await (await ask(ada.speaker, 'What came before the engine?', grace)).json(),
      );
      expect(question).toMatchObject({ votes: 0, answered: false, pinned: false });
      const path = `/api/questions/${question._id}/vote`;
      for (let i = 0; i < 3; i += 1) {
        const response = await call(t.url, 'PUT', path, { token: grace });
        expect(response.status).toBe(200);
        expect(questionResponseSchema.parse(await response.json()).question.votes).toBe(1);
      }
      const second = await call(t.url, 'PUT', path, { token: linus });
      expect(questionResponseSchema.parse(await second.json()).question.votes).toBe(2);
      const back = await call(t.url, 'DELETE', path, { token: grace });
      expect(questionResponseSchema.parse(await back.json()).question.votes).toBe(1);
      const again = await call(t.url, 'DELETE', path, { token: grace });
      expect(questionResponseSchema.parse(await again.json()).question.votes).toBe(1);
      const [listed] = (await publicList(t.url, `?speakerId=${ada.speaker._id}`)).filter(
        (q) => q._id === question._id,
      );
      expect(listed?.votes).toBe(1);
    });

    it('refuses a missing, wrong-kind or forged token with 401 and counts nothing', async () => {
      const question = await asked(ada.speaker, 'Tokens?', 'x');
      const path = `/api/questions/${question._id}/vote`;
      for (const token of [undefined, admin, ada.token, forged(grace), 'not-a-token', '']) {
        const response = await call(t.url, 'PUT', path, { token });
        expect(response.status, String(token)).toBe(401);
        await errorOf(response);
      }
      const wrongScheme = await fetch(`${t.url}${path}`, {
        method: 'PUT',
        headers: { authorization: `Basic ${grace}` },
      });
      expect(wrongScheme.status).toBe(401);
      const listed = await publicList(t.url, `?speakerId=${ada.speaker._id}`);
      expect(listed.find((q) => q._id === question._id)?.votes).toBe(0);
      // Unknown and malformed ids.
      expect(
        (await call(t.url, 'PUT', `/api/questions/${newId()}/vote`, { token: grace })).status,
      ).toBe(404);
      expect((await call(t.url, 'PUT', '/api/questions/nope/vote', { token: grace })).status).toBe(
        400,
      );
    });

    it('keeps the count exact under 1,000 attendees voting at once', async () => {
      const question = await asked(alan.speaker, 'Can machines think?', 'crowd');
      const tokens = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          t.app.deps.callers.signAttendee({ id: newId(), username: `voter${i}` }),
        ),
      );
      const statuses = await Promise.all(
        tokens.map(async (token) => {
          const response = await call(t.url, 'PUT', `/api/questions/${question._id}/vote`, {
            token,
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
      const listed = await publicList(t.url, `?speakerId=${alan.speaker._id}&sort=top&limit=1`);
      expect(listed[0]?._id).toBe(question._id);
      expect(listed[0]?.votes).toBe(1000);
    }, 120_000);

    it('pushes the count to watchers, coalesced', async () => {
      const question = await asked(ada.speaker, 'Coalesce me', 'c');
      const watcher = await watchSpeaker(ada.speaker);
      const updates = collect(watcher, 'questionUpdated');
      const tokens = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.app.deps.callers.signAttendee({ id: newId(), username: `fan${i}` }),
        ),
      );
      await Promise.all(
        tokens.map((token) =>
          call(t.url, 'PUT', `/api/questions/${question._id}/vote`, { token }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
      );
      await expect.poll(() => updates.at(-1)?.question.votes, { timeout: 5000 }).toBe(50);
      const mine = updates.filter((u) => u.question._id === question._id);
      expect(mine.length).toBeLessThan(20);
      expect(questionUpdatedEventSchema.parse(mine.at(-1)).question.votes).toBe(50);
    });
  });

  describe('sort=top', () => {
    it('lists most votes first, the oldest first among equals', async () => {
      const { speaker } = await signUp('Top Sort Person');
      const made: Question[] = [];
      for (const text of ['a', 'b', 'c', 'd']) {
        made.push(await asked(speaker, text, 'o'));
      }
      const [a, b, c, d] = made as [Question, Question, Question, Question];
      for (const token of [grace, linus]) {
        await call(t.url, 'PUT', `/api/questions/${c._id}/vote`, { token });
      }
      await call(t.url, 'PUT', `/api/questions/${b._id}/vote`, { token: grace });
      await call(t.url, 'PUT', `/api/questions/${d._id}/vote`, { token: grace });
      const top = await publicList(t.url, `?speakerId=${speaker._id}&sort=top`);
      expect(top.map((q) => q._id)).toEqual([c._id, b._id, d._id, a._id]);
      const recent = await publicList(t.url, `?speakerId=${speaker._id}`);
      expect(recent.map((q) => q._id)).toEqual([a._id, b._id, c._id, d._id]);
      expect((await fetch(`${t.url}/api/questions/realtime?sort=best`)).status).toBe(400);
    });
  });

  describe('speakers: secret, token, answered, pinned, hidden', () => {
    it('answers the secret once at sign-up; login with it adds a token, without it does not', async () => {
      const plain = await call(t.url, 'POST', '/api/speakers/login', {
        body: { username: ada.speaker.username },
      });
      const body = (await plain.json()) as Record<string, unknown>;
      expect(plain.status).toBe(200);
      expect(body.message).toBe('Login successful!');
      expect(body.token).toBeUndefined();
      for (const secret of ['wrong', alan.secret, 'x'.repeat(150)]) {
        const wrong = await call(t.url, 'POST', '/api/speakers/login', {
          body: { username: ada.speaker.username, secret },
        });
        expect(wrong.status).toBe(401);
        await errorOf(wrong);
      }
      const tooLong = await call(t.url, 'POST', '/api/speakers/login', {
        body: { username: ada.speaker.username, secret: 'x'.repeat(201) },
      });
      expect(tooLong.status).toBe(400);
    });

    it('marks answered and pins one question per speaker, live; another speaker gets 403', async () => {
      const first = await asked(ada.speaker, 'Pin me first', 'p');
      const second = await asked(ada.speaker, 'Pin me second', 'p');
      const watcher = await watchSpeaker(ada.speaker);
      const updates = collect(watcher, 'questionUpdated');
      const patch = (id: string, body: unknown, token: string | null = ada.token) =>
        call(t.url, 'PATCH', `/api/questions/${id}`, { token: token ?? undefined, body });

      const answered = await patch(first._id, { answered: true });
      expect(answered.status).toBe(200);
      expect(questionResponseSchema.parse(await answered.json()).question.answered).toBe(true);
      await patch(first._id, { pinned: true });
      const pinned = await patch(second._id, { pinned: true });
      expect(questionResponseSchema.parse(await pinned.json()).question.pinned).toBe(true);
      const list = await publicList(t.url, `?speakerId=${ada.speaker._id}`);
      expect(list.filter((q) => q.pinned).map((q) => q._id)).toEqual([second._id]);
      await expect
        .poll(() => updates.some((u) => u.question._id === first._id && !u.question.pinned))
        .toBe(true);

      // Another speaker, an attendee, a forged token, no token.
      expect((await patch(first._id, { answered: false }, alan.token)).status).toBe(403);
      for (const token of [grace, forged(ada.token), null]) {
        expect((await patch(first._id, { answered: false }, token)).status).toBe(401);
      }
      // The admin may.
      expect((await patch(first._id, { answered: false }, admin)).status).toBe(200);
      // Hostile bodies.
      for (const body of [{}, { answered: 'yes' }, { votes: 99 }, { status: 'gone' }, [], null]) {
        const response = await patch(first._id, body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        await errorOf(response);
      }
      const huge = await call(t.url, 'PATCH', `/api/questions/${first._id}`, {
        token: ada.token,
        raw: JSON.stringify({ answered: true, pad: 'x'.repeat(20_000) }),
      });
      expect(huge.status).toBe(413);
      expect((await patch(newId(), { answered: true })).status).toBe(404);
      const after = (await publicList(t.url, `?speakerId=${ada.speaker._id}`)).find(
        (q) => q._id === first._id,
      );
      expect(after).toMatchObject({ answered: false, pinned: false, votes: 0 });
    });

    it('a speaker lists their own hidden questions by their token only, and unhides them', async () => {
      const question = await asked(ada.speaker, 'Hidden by mistake', 'h');
      const hidden = await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
        token: ada.token,
        body: { status: 'hidden' },
      });
      expect(hidden.status).toBe(200);
      const dashboard = async (token?: string) => {
        const response = await call(
          t.url,
          'GET',
          `/api/speakers/${ada.speaker.username}/dashboard`,
          { token },
        );
        expect(response.status).toBe(200);
        return speakerDashboardSchema.parse(await response.json()).questions;
      };
      // The speaker's own token: the hidden question is there, marked hidden.
      expect((await dashboard(ada.token)).find((q) => q._id === question._id)?.status).toBe(
        'hidden',
      );
      // Never for anyone else: the public, another speaker, the public lists; an attendee's
      // token is no moderator's.
      for (const token of [undefined, alan.token]) {
        expect((await dashboard(token)).map((q) => q._id)).not.toContain(question._id);
      }
      const attendee = await call(t.url, 'GET', `/api/speakers/${ada.speaker.username}/dashboard`, {
        token: linus,
      });
      expect(attendee.status).toBe(401);
      for (const query of [`?speakerId=${ada.speaker._id}`, '', `?askerUsername=h`]) {
        expect((await publicList(t.url, query)).map((q) => q._id)).not.toContain(question._id);
      }
      // Another speaker cannot publish it; its own speaker can.
      const refused = await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
        token: alan.token,
        body: { status: 'published' },
      });
      expect(refused.status).toBe(403);
      const unhidden = await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
        token: ada.token,
        body: { status: 'published' },
      });
      expect(unhidden.status).toBe(200);
      expect(questionResponseSchema.parse(await unhidden.json()).question.status).toBe('published');
      expect((await dashboard()).map((q) => q._id)).toContain(question._id);
      expect(
        (await publicList(t.url, `?speakerId=${ada.speaker._id}`)).map((q) => q._id),
      ).toContain(question._id);
    });

    it('hides a question: gone for everyone, live, kept for the admin', async () => {
      const question = await asked(ada.speaker, 'Hide me', 'h');
      const watcher = await watch([{ room: 'questions' }]);
      const moderator = await watch([{ room: 'moderation', token: admin }]);
      const deleted = collect(watcher, 'questionDeleted');
      const moderated = collect(moderator, 'questionUpdated');
      const response = await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
        token: ada.token,
        body: { status: 'hidden' },
      });
      expect(response.status).toBe(200);
      await expect.poll(() => deleted.map((d) => d.id)).toContain(question._id);
      await expect
        .poll(() => moderated.find((u) => u.question._id === question._id)?.question.status)
        .toBe('hidden');
      expect(
        (await publicList(t.url, `?speakerId=${ada.speaker._id}`)).map((q) => q._id),
      ).not.toContain(question._id);
      const dashboard = speakerDashboardSchema.parse(
        await (await fetch(`${t.url}/api/speakers/${ada.speaker.username}/dashboard`)).json(),
      );
      expect(dashboard.questions.map((q) => q._id)).not.toContain(question._id);
      const forAdmin = await adminList(t.url, admin, '?status=hidden');
      expect(forAdmin.map((q) => q._id)).toContain(question._id);
      // Hidden questions take no votes.
      expect(
        (await call(t.url, 'PUT', `/api/questions/${question._id}/vote`, { token: grace })).status,
      ).toBe(404);
    });

    it('refuses a moderation room to a token that does not check out', async () => {
      const socket = await watch([]);
      for (const token of [grace, forged(admin), 'x']) {
        expect(await socket.emitWithAck('watch', { room: 'moderation', token })).toBe(false);
      }
      expect(await socket.emitWithAck('watch', { room: 'moderation', token: ada.token })).toBe(
        true,
      );
    });
  });

  describe('unique speaker names', () => {
    it('answers 409 for a name that reads the same, with a clear message', async () => {
      await signUp('Grace Hopper');
      for (const name of [
        'grace hopper',
        'GRACE   HOPPER',
        'Grаce Hopper', // Cyrillic а
        'Gr\u200Bace Hopper',
        'Ｇｒａｃｅ Hopper',
        'Grâce Hopper',
      ]) {
        await expect(addSpeakerWithSecret(t.url, name), name).rejects.toThrow(
          /409.*already signed up/,
        );
      }
    });

    it('lets exactly one of 20 simultaneous sign-ups with one name through', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          addSpeakerWithSecret(t.url, i % 2 ? 'Barbara Liskov' : 'barbara  LISKOV'),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(String(r.reason)).toMatch(/409/);
      }
      const speakers = (await (await fetch(`${t.url}/speakers`)).json()) as Speaker[];
      expect(speakers.filter((s) => s.name.toLowerCase().includes('liskov'))).toHaveLength(1);
    });
  });

  describe('the admin', () => {
    it('deletes a question: gone live, 404 after', async () => {
      const question = await asked(alan.speaker, 'Delete me', 'd');
      await call(t.url, 'PUT', `/api/questions/${question._id}/vote`, { token: grace });
      const watcher = await watchSpeaker(alan.speaker);
      const deleted = collect(watcher, 'questionDeleted');
      for (const token of [undefined, grace, alan.token, forged(admin)]) {
        const refused = await call(t.url, 'DELETE', `/api/questions/${question._id}`, { token });
        expect(refused.status).toBe(401);
      }
      const response = await call(t.url, 'DELETE', `/api/questions/${question._id}`, {
        token: admin,
      });
      expect(response.status).toBe(200);
      await expect.poll(() => deleted).toEqual([{ id: question._id, speakerId: alan.speaker._id }]);
      expect(
        (await call(t.url, 'DELETE', `/api/questions/${question._id}`, { token: admin })).status,
      ).toBe(404);
      expect((await call(t.url, 'DELETE', '/api/questions/1', { token: admin })).status).toBe(400);
    });

    it('issues a new secret: the old one and its tokens stop working', async () => {
      const speaker = await signUp('Rotating Speaker');
      for (const token of [undefined, grace, speaker.token]) {
        const refused = await call(t.url, 'POST', `/api/speakers/${speaker.speaker._id}/secret`, {
          token,
        });
        expect(refused.status).toBe(401);
      }
      const response = await call(t.url, 'POST', `/api/speakers/${speaker.speaker._id}/secret`, {
        token: admin,
      });
      expect(response.status).toBe(200);
      const { secret } = (await response.json()) as { secret: string };
      expect(secret).not.toBe(speaker.secret);
      const old = await call(t.url, 'POST', '/api/speakers/login', {
        body: { username: speaker.speaker.username, secret: speaker.secret },
      });
      expect(old.status).toBe(401);
      const question = await asked(speaker.speaker, 'Still yours?', 'r');
      const stale = await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
        token: speaker.token,
        body: { answered: true },
      });
      expect(stale.status).toBe(401);
      const fresh = await speakerToken(t.url, speaker.speaker.username, secret);
      expect(
        (
          await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
            token: fresh,
            body: { answered: true },
          })
        ).status,
      ).toBe(200);
      expect(
        (await call(t.url, 'POST', `/api/speakers/${newId()}/secret`, { token: admin })).status,
      ).toBe(404);
    });

    it('deletes a speaker with their questions, live', async () => {
      const speaker = await signUp('Leaving Speaker');
      const question = await asked(speaker.speaker, 'Bye?', 'b');
      const watcher = await watch([]);
      const gone = collect(watcher, 'speakerDeleted');
      for (const token of [undefined, grace, speaker.token]) {
        expect(
          (await call(t.url, 'DELETE', `/api/speakers/${speaker.speaker._id}`, { token })).status,
        ).toBe(401);
      }
      const response = await call(t.url, 'DELETE', `/api/speakers/${speaker.speaker._id}`, {
        token: admin,
      });
      expect(response.status).toBe(200);
      await expect.poll(() => gone).toEqual([{ id: speaker.speaker._id }]);
      const speakers = (await (await fetch(`${t.url}/speakers`)).json()) as Speaker[];
      expect(speakers.map((s) => s._id)).not.toContain(speaker.speaker._id);
      expect((await adminList(t.url, admin)).map((q) => q._id)).not.toContain(question._id);
      expect(
        (await fetch(`${t.url}/api/speakers/${speaker.speaker.username}/dashboard`)).status,
      ).toBe(404);
      expect(
        (await call(t.url, 'DELETE', `/api/speakers/${speaker.speaker._id}`, { token: admin }))
          .status,
      ).toBe(404);
      // The name is free again.
      await addSpeakerWithSecret(t.url, 'Leaving Speaker');
    });

    it('lists every question newest first, searched and filtered, only with the admin token', async () => {
      const marker = `needle-${Date.now()}`;
      const question = await asked(ada.speaker, `Where is the ${marker}?`, 'seeker');
      const found = await adminList(t.url, admin, `?search=${marker.toUpperCase()}`);
      expect(found.map((q) => q._id)).toEqual([question._id]);
      const all = await adminList(t.url, admin, '?limit=200');
      const ids = all.map((q) => q._id);
      expect(ids).toEqual([...ids].sort().reverse());
      for (const token of [undefined, grace, ada.token]) {
        expect((await call(t.url, 'GET', '/api/admin/questions', { token })).status).toBe(401);
      }
      for (const query of ['?status=gone', '?limit=0', `?search=${'x'.repeat(101)}`]) {
        expect(
          (await call(t.url, 'GET', `/api/admin/questions${query}`, { token: admin })).status,
        ).toBe(400);
      }
    });

    it('filters the admin list by answered, open and pinned', async () => {
      const marker = `flagged-${Date.now()}`;
      const answered = await asked(alan.speaker, `Answered ${marker}`, 'f1');
      const pinned = await asked(alan.speaker, `Pinned ${marker}`, 'f2');
      const open = await asked(alan.speaker, `Open ${marker}`, 'f3');
      for (const [question, body] of [
        [answered, { answered: true }],
        [pinned, { pinned: true }],
      ] as const) {
        const response = await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
          token: alan.token,
          body,
        });
        expect(response.status).toBe(200);
      }
      const ids = async (flag: string) =>
        (await adminList(t.url, admin, `?search=${marker}&flag=${flag}`)).map((q) => q._id);
      expect(await ids('answered')).toEqual([answered._id]);
      expect(await ids('pinned')).toEqual([pinned._id]);
      expect(await ids('open')).toEqual([open._id, pinned._id]);
      const refused = await call(t.url, 'GET', '/api/admin/questions?flag=starred', {
        token: admin,
      });
      expect(refused.status).toBe(400);
      await errorOf(refused);
    });

    it('exports CSV with formulas neutralised; a speaker exports their own only', async () => {
      await asked(alan.speaker, '=HYPERLINK("http://evil.example","click")', '+cmd');
      const response = await call(t.url, 'GET', '/api/admin/questions.csv', { token: admin });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      const text = await response.text();
      const [header] = text.replace(/^\uFEFF/, '').split('\r\n');
      expect(header).toBe(
        'id,createdAt,speakerId,speakerName,askerUsername,question,votes,answered,pinned,status,anonymous,answer,answeredAt',
      );
      expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      expect(text).toContain(",'+cmd,");
      expect(text).not.toMatch(/,=HYPERLINK/);
      const own = await call(t.url, 'GET', `/api/speakers/${alan.speaker._id}/questions.csv`, {
        token: alan.token,
      });
      expect(own.status).toBe(200);
      const ownText = await own.text();
      expect(ownText).toContain('HYPERLINK');
      expect(ownText).not.toContain(ada.speaker._id);
      expect(
        (
          await call(t.url, 'GET', `/api/speakers/${alan.speaker._id}/questions.csv`, {
            token: ada.token,
          })
        ).status,
      ).toBe(403);
      for (const token of [undefined, grace, ada.token]) {
        expect((await call(t.url, 'GET', '/api/admin/questions.csv', { token })).status).toBe(401);
      }
    });

    it('reads and changes the settings, validated; the public ones appear in /api/config', async () => {
      const read = await call(t.url, 'GET', '/api/admin/settings', { token: admin });
      expect(await read.json()).toEqual({
        moderateQuestions: false,
        moderateMemories: false,
        allowAnonymousQuestions: false,
        eventName: 'Confab',
        primaryColor: '#4c6ef5',
        wallIntervalSeconds: 8,
        questionsPerMinute: 600,
        timezone: 'UTC',
        reportsToHide: 3,
        retentionDays: null,
        retentionUntil: null,
        retentionEndsAt: null,
        privacyNotice: '',
        reactions: DEFAULT_REACTIONS,
        blockedWords: { words: DEFAULT_BLOCKED_WORD_LIST, action: 'hold' },
        languages: ['en', 'fr', 'de', 'es', 'pt', 'ar', 'ja'],
        defaultLanguage: 'en',
        logoUrl: null,
      });
      const changed = await call(t.url, 'PUT', '/api/admin/settings', {
        token: admin,
        body: { eventName: 'DevConf 2026', primaryColor: '#AA3300', wallIntervalSeconds: 12 },
      });
      expect(changed.status).toBe(200);
      expect(await changed.json()).toMatchObject({
        eventName: 'DevConf 2026',
        primaryColor: '#aa3300',
        wallIntervalSeconds: 12,
      });
      const config = (await (await fetch(`${t.url}/api/config`)).json()) as Record<string, unknown>;
      expect(config).toMatchObject({ eventName: 'DevConf 2026', primaryColor: '#aa3300' });
      for (const body of [
        {},
        { primaryColor: 'red' },
        { primaryColor: '#12345' },
        { eventName: '' },
        { wallIntervalSeconds: 1 },
        { questionsPerMinute: 0 },
        { questionsPerMinute: 2.5 },
        { moderateQuestions: 'yes' },
        { allowAnonymousQuestions: 'yes' },
        { unknown: true },
      ]) {
        const response = await call(t.url, 'PUT', '/api/admin/settings', { token: admin, body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        await errorOf(response);
      }
      for (const token of [undefined, grace, ada.token]) {
        expect(
          (await call(t.url, 'PUT', '/api/admin/settings', { token, body: { eventName: 'X' } }))
            .status,
        ).toBe(401);
      }
      const after = (await (
        await call(t.url, 'GET', '/api/admin/settings', { token: admin })
      ).json()) as Record<string, unknown>;
      expect(after.eventName).toBe('DevConf 2026');
      await call(t.url, 'PUT', '/api/admin/settings', {
        token: admin,
        body: { eventName: 'Confab', primaryColor: '#4c6ef5', wallIntervalSeconds: 8 },
      });
    });

    it('answers counts in /api/admin/stats', async () => {
      const response = await call(t.url, 'GET', '/api/admin/stats', { token: admin });
      expect(response.status).toBe(200);
      const stats = (await response.json()) as Record<string, number>;
      expect(stats.speakers).toBeGreaterThan(1);
      expect(stats.questions).toBeGreaterThan(1);
      expect(stats.votes).toBeGreaterThan(1000);
      expect(stats.attendees).toBeGreaterThanOrEqual(2);
      expect((await call(t.url, 'GET', '/api/admin/stats', { token: grace })).status).toBe(401);
    });
  });

  describe('pre-moderation', () => {
    it('keeps new questions pending, seen by the admin and that speaker only, until published', async () => {
      await call(t.url, 'PUT', '/api/admin/settings', {
        token: admin,
        body: { moderateQuestions: true },
      });
      const publicWatcher = await watchSpeaker(ada.speaker);
      const speakerWatcher = await watch([{ room: 'moderation', token: ada.token }]);
      const publicNew = collect(publicWatcher, 'newQuestion');
      const publicUpdated = collect(publicWatcher, 'questionUpdated');
      const speakerNew = collect(speakerWatcher, 'newQuestion');
      try {
        const response = await ask(ada.speaker, 'Moderate me', grace);
        expect(response.status).toBe(201);
        const question = questionSchema.parse(await response.json());
        expect(question.status).toBe('pending');
        await expect.poll(() => speakerNew.map((e) => e.question._id)).toContain(question._id);
        expect(
          (await publicList(t.url, `?speakerId=${ada.speaker._id}`)).map((q) => q._id),
        ).not.toContain(question._id);
        const dashboard = (token?: string) =>
          call(t.url, 'GET', `/api/speakers/${ada.speaker.username}/dashboard`, { token })
            .then((r) => r.json())
            .then((body) => speakerDashboardSchema.parse(body).questions.map((q) => q._id));
        expect(await dashboard()).not.toContain(question._id);
        expect(await dashboard(ada.token)).toContain(question._id);
        expect(await dashboard(alan.token)).not.toContain(question._id);
        expect((await adminList(t.url, admin, '?status=pending')).map((q) => q._id)).toContain(
          question._id,
        );
        // Pending questions take no votes.
        expect(
          (await call(t.url, 'PUT', `/api/questions/${question._id}/vote`, { token: linus }))
            .status,
        ).toBe(404);
        const published = await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
          token: admin,
          body: { status: 'published' },
        });
        expect(published.status).toBe(200);
        await expect.poll(() => publicUpdated.map((e) => e.question._id)).toContain(question._id);
        expect(publicNew.map((e) => e.question._id)).not.toContain(question._id);
        expect(
          (await publicList(t.url, `?speakerId=${ada.speaker._id}`)).map((q) => q._id),
        ).toContain(question._id);
      } finally {
        await call(t.url, 'PUT', '/api/admin/settings', {
          token: admin,
          body: { moderateQuestions: false },
        });
      }
    });
  });

  describe('spam', () => {
    it('refuses the same question twice from one asker to one speaker with 409', async () => {
      const text = `Is this a duplicate ${Date.now()}?`;
      expect((await ask(alan.speaker, text, linus, 'linus')).status).toBe(201);
      const again = await ask(alan.speaker, `  ${text.toUpperCase()} `, linus, 'linus');
      expect(again.status).toBe(409);
      expect(await errorOf(again)).toBe('You already asked this question');
      // Without the token, by the same name: still the same asker.
      expect((await ask(alan.speaker, text, undefined, 'linus')).status).toBe(409);
      // Someone else, or another speaker, may ask it.
      expect((await ask(alan.speaker, text, grace, 'grace')).status).toBe(201);
      expect((await ask(ada.speaker, text, linus, 'linus')).status).toBe(201);
    });

    it('refuses a forged or wrong-kind token on POST /questions and stores nothing', async () => {
      const before = (await adminList(t.url, admin, '?limit=200')).length;
      for (const token of [forged(grace), admin, ada.token]) {
        const response = await ask(ada.speaker, 'Forged?', token);
        expect(response.status).toBe(401);
      }
      expect((await adminList(t.url, admin, '?limit=200')).length).toBe(before);
    });
  });
});

describe.each(testDatabases)('asking limits on %s', (database) => {
  const t = useTestApp({ database, env: { ADMIN_PASSWORD: PASSWORD } });

  it('answers 429 with Retry-After past the per-attendee limit, which the admin can change', async () => {
    const admin = await adminToken(t.url, PASSWORD);
    await call(t.url, 'PUT', '/api/admin/settings', {
      token: admin,
      body: { questionsPerMinute: 3 },
    });
    const { speaker } = await addSpeakerWithSecret(t.url, 'Busy Speaker');
    const token = await joinAttendee(t.url, 'spammer');
    const other = await joinAttendee(t.url, 'polite');
    const ask = (text: string, as: string, asker: string) =>
      call(t.url, 'POST', '/questions', {
        token: as,
        body: { speakerId: speaker._id, question: text, askerUsername: asker },
      });
    for (let i = 0; i < 3; i += 1) expect((await ask(`q${i}`, token, 'spammer')).status).toBe(201);
    // A new name does not reset the count: it keys on the attendee token.
    const limited = await ask('q3', token, 'someone-else');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await errorOf(limited)).toMatch(/Try again in \d+ seconds?/);
    expect((await ask('q0', other, 'polite')).status).toBe(201);
    const stored = (await (
      await call(t.url, 'GET', '/api/admin/questions', { token: admin })
    ).json()) as Question[];
    expect(stored.filter((q) => q.askerUsername !== 'polite')).toHaveLength(3);
  });

  it('keeps the spec call working without a token (default 5 a minute per asker)', async () => {
    const app = await startTestApp({ database });
    try {
      const { speaker } = await addSpeakerWithSecret(app.url, 'Plain Speaker');
      for (let i = 0; i < 5; i += 1) {
        await askQuestion(app.url, {
          speakerId: speaker._id,
          question: `n${i}`,
          askerUsername: 'n',
        });
      }
      const response = await fetch(`${app.url}/questions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ speakerId: speaker._id, question: 'n5', askerUsername: 'n' }),
      });
      expect(response.status).toBe(429);
    } finally {
      await app.close();
    }
  });
});
