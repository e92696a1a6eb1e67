import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Question,
  questionListSchema,
  questionResponseSchema,
  questionSchema,
} from '../../shared/schemas/question.ts';
import { CLIENT_ID_HEADER } from '../../shared/constants.ts';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import { type Session, roomSchema, sessionSchema } from '../../shared/schemas/programme.ts';
import { type Speaker, speakerDashboardSchema } from '../../shared/schemas/speaker.ts';
import { ManualClock } from '../../../tests/support/manual-clock.ts';
import {
  addSpeakerWithSecret,
  adminToken,
  bearer,
  call,
  collect,
  errorOf,
  forged,
  joinAttendee,
  speakerToken,
} from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';

const PASSWORD = 'voice-qa-admin-password';

/*
 * Anonymous questions (decision 233) and written answers (decision 234): who sees an anonymous
 * asker's name, that it never comes back, and who may write, change and remove an answer.
 */
describe.each(testDatabases)('anonymous questions and written answers on %s', (database) => {
  const clock = new ManualClock('2026-03-28T12:30:00Z');
  const t = useTestApp({
    database,
    clock,
    env: { ADMIN_PASSWORD: PASSWORD, QUESTIONS_PER_MINUTE: '600', WRITE_RATE_LIMIT: '1000' },
  });
  const watch = useWatchingSockets(t);
  interface SignedIn {
    speaker: Speaker;
    token: string;
  }
  let admin: string;
  let ada: SignedIn;
  let linus: SignedIn;
  let grace: string;
  let alan: string;
  let talk: Session;

  const signUp = async (name: string): Promise<SignedIn> => {
    const { speaker, secret } = await addSpeakerWithSecret(t.url, name);
    return { speaker, token: await speakerToken(t.url, speaker.username, secret) };
  };
  const settings = async (body: Record<string, unknown>) => {
    const response = await call(t.url, 'PUT', '/api/admin/settings', { token: admin, body });
    expect(response.status).toBe(200);
  };
  const ask = (body: Record<string, unknown>, token: string | undefined = grace) =>
    call(t.url, 'POST', '/questions', {
      token,
      body: { sessionId: talk._id, speakerId: ada.speaker._id, askerUsername: 'grace', ...body },
    });
  const asked = async (body: Record<string, unknown>, token?: string): Promise<Question> => {
    const response = await ask(body, token);
    expect(response.status, JSON.stringify(body)).toBe(201);
    return questionSchema.parse(await response.json());
  };
  const list = async (query: string, token?: string): Promise<Question[]> => {
    const response = await call(t.url, 'GET', `/api/questions/realtime${query}`, { token });
    expect(response.status).toBe(200);
    return questionListSchema.parse(await response.json());
  };
  const find = (questions: Question[], id: string) => questions.find((q) => q._id === id);
  const dashboard = async (token?: string) => {
    const response = await call(t.url, 'GET', `/api/speakers/${ada.speaker.username}/dashboard`, {
      token,
    });
    expect(response.status).toBe(200);
    return speakerDashboardSchema.parse(await response.json()).questions;
  };
  const patch = (id: string, body: unknown, token: string | undefined) =>
    call(t.url, 'PATCH', `/api/questions/${id}`, { token, body });
  const csv = async (path: string, token: string) => {
    const response = await call(t.url, 'GET', path, { token });
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
    [ada, linus] = await Promise.all([signUp('Ada Lovelace'), signUp('Linus Torvalds')]);
    [grace, alan] = await Promise.all([joinAttendee(t.url, 'grace'), joinAttendee(t.url, 'alan')]);
    const made = await call(t.url, 'POST', '/api/admin/rooms', {
      token: admin,
      body: { name: 'Main hall' },
    });
    const room = roomSchema.parse(await made.json());
    const response = await call(t.url, 'POST', '/api/admin/sessions', {
      token: admin,
      body: {
        title: 'Notes on the engine',
        roomId: room._id,
        startsAt: '2026-03-28T12:00:00Z',
        endsAt: '2026-03-28T13:00:00Z',
        speakerIds: [ada.speaker._id],
      },
    });
    talk = sessionSchema.parse(await response.json());
  });

  it('refuses an anonymous question while the setting is off, and stores nothing', async () => {
    const config = publicConfigSchema.parse(await (await fetch(`${t.url}/api/config`)).json());
    expect(config.allowAnonymousQuestions).toBe(false);
    const before = (await list('?limit=200')).length;
    const refused = await ask({ question: 'Who am I?', anonymous: true });
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatch(/Anonymous questions are not allowed/);
    for (const anonymous of ['yes', 1, null]) {
      const response = await ask({ question: 'Who am I?', anonymous });
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatch(/anonymous must be true or false/);
    }
    expect((await list('?limit=200')).length).toBe(before);
    // Asked under the name, as before.
    const named = await asked({ question: 'Named?', anonymous: false });
    expect(named).toMatchObject({ anonymous: false, askerUsername: 'grace', answer: null });
  });

  it('hides an anonymous asker from every list, event and export but the admin’s', async () => {
    await settings({ allowAnonymousQuestions: true });
    const config = publicConfigSchema.parse(await (await fetch(`${t.url}/api/config`)).json());
    expect(config.allowAnonymousQuestions).toBe(true);

    const asker = `${t.url}/api/questions/realtime?askerUsername=grace`;
    const askerTag = (await fetch(asker)).headers.get('etag') ?? '';
    const sessionRoom = await watch([{ room: 'session', sessionId: talk._id }]);
    const speakerModeration = await watch([{ room: 'moderation', token: ada.token }]);
    const adminModeration = await watch([{ room: 'moderation', token: admin }]);
    const heard = {
      session: collect(sessionRoom, 'newQuestion'),
      speaker: collect(speakerModeration, 'newQuestion'),
      admin: collect(adminModeration, 'newQuestion'),
    };

    const question = await asked({ question: 'Is it safe to ask?', anonymous: true });
    // The asker's own answer carries the name they sent.
    expect(question).toMatchObject({ anonymous: true, askerUsername: 'grace' });

    for (const query of ['', `?sessionId=${talk._id}`, `?speakerId=${ada.speaker._id}`]) {
      const shown = find(await list(`${query}${query ? '&' : '?'}limit=200`), question._id);
      expect(shown, query).toMatchObject({ anonymous: true, askerUsername: null });
    }
    for (const token of [undefined, ada.token, admin]) {
      expect(find(await dashboard(token), question._id)?.askerUsername).toBeNull();
    }
    // Anybody's list of grace's questions leaves it out, and its version did not move.
    expect(find(await list('?askerUsername=grace'), question._id)).toBeUndefined();
    expect((await fetch(asker, { headers: { 'if-none-match': askerTag } })).status).toBe(304);

    await expect.poll(() => heard.session.length).toBe(1);
    await expect.poll(() => heard.speaker.length).toBe(1);
    await expect.poll(() => heard.admin.length).toBe(1);
    expect(heard.session[0]?.question.askerUsername).toBeNull();
    expect(heard.speaker[0]?.question.askerUsername).toBeNull();
    expect(heard.admin[0]?.question.askerUsername).toBe('grace');

    // A vote's event carries no name either.
    const updated = collect(sessionRoom, 'questionUpdated');
    const vote = await call(t.url, 'PUT', `/api/questions/${question._id}/vote`, { token: alan });
    expect(questionResponseSchema.parse(await vote.json()).question.askerUsername).toBeNull();
    await expect.poll(() => updated.length).toBeGreaterThan(0);
    expect(updated.every((e) => e.question.askerUsername === null)).toBe(true);
    expect((await fetch(asker, { headers: { 'if-none-match': askerTag } })).status).toBe(304);

    // The admin sees the name: the list and the CSV; the speaker's CSV leaves it out.
    const adminList = await call(t.url, 'GET', '/api/admin/questions?search=safe', {
      token: admin,
    });
    const adminRows = questionListSchema.parse(await adminList.json());
    expect(find(adminRows, question._id)?.askerUsername).toBe('grace');
    const adminCsv = await csv('/api/admin/questions.csv', admin);
    expect(adminCsv.split('\r\n').find((line) => line.includes(question._id))).toMatch(
      /,grace,Is it safe to ask\?,1,false,false,published,true,,$/,
    );
    const speakerCsv = await csv(`/api/speakers/${ada.speaker._id}/questions.csv`, ada.token);
    const row = speakerCsv.split('\r\n').find((line) => line.includes(question._id)) ?? '';
    expect(row).toMatch(/,Ada Lovelace,,Is it safe to ask\?,/);
    expect(speakerCsv).not.toMatch(/,grace,Is it safe/);
  });

  it('lets the asker alone list their own anonymous questions', async () => {
    const question = await asked({ question: 'Mine alone?', anonymous: true });
    const own = '?askerUsername=grace&own=true';
    const mine = await list(own, grace);
    expect(find(mine, question._id)).toMatchObject({ anonymous: true, askerUsername: 'grace' });
    const response = await call(t.url, 'GET', `/api/questions/realtime${own}`, { token: grace });
    expect(response.headers['get']('cache-control')).toMatch(/private/);
    // Without their token, with another's, a forged one or a speaker's: refused.
    for (const [token, status] of [
      [undefined, 401],
      [forged(grace), 401],
      [ada.token, 401],
      [alan, 403],
    ] as const) {
      const refused = await call(t.url, 'GET', `/api/questions/realtime${own}`, { token });
      expect(refused.status, String(token)).toBe(status);
      await errorOf(refused);
    }
    const wrong = await call(t.url, 'GET', '/api/questions/realtime?askerUsername=grace&own=1', {
      token: grace,
    });
    expect(wrong.status).toBe(400);
  });

  it('keeps an anonymous question anonymous whatever changes afterwards', async () => {
    const question = await asked({ question: 'Still hidden?', anonymous: true });
    await settings({ allowAnonymousQuestions: false });
    // No change of a question names its asker: the field cannot be sent.
    for (const body of [{ anonymous: false }, { askerUsername: 'grace' }]) {
      const response = await patch(question._id, body, admin);
      expect(response.status).toBe(400);
      await errorOf(response);
    }
    expect((await patch(question._id, { pinned: true }, ada.token)).status).toBe(200);
    expect(find(await list('?limit=200'), question._id)).toMatchObject({
      anonymous: true,
      askerUsername: null,
      pinned: true,
    });
    expect(find(await list('?askerUsername=grace'), question._id)).toBeUndefined();
    // Off again: a new one is refused, the old ones stay as they were.
    expect((await ask({ question: 'Again?', anonymous: true })).status).toBe(400);
    await settings({ allowAnonymousQuestions: true });
  });

  it('keeps the asker’s export and erasure whole', async () => {
    const token = await joinAttendee(t.url, 'hedy');
    const question = await asked(
      { askerUsername: 'hedy', question: 'Exported?', anonymous: true },
      token,
    );
    const exported = await fetch(`${t.url}/api/attendees/me/export`, { headers: bearer(token) });
    expect(exported.status).toBe(200);
    const body = (await exported.json()) as { questions: Question[] };
    expect(body.questions.map((q) => q._id)).toContain(question._id);
    const erased = await call(t.url, 'DELETE', '/api/attendees/me', { token });
    expect(erased.status).toBe(200);
    expect(find(await list('?limit=200'), question._id)).toBeUndefined();
  });

  it('lets the session’s speaker write, change and remove an answer, live', async () => {
    const question = await asked({ question: 'Will you answer?', anonymous: true });
    const sessionRoom = await watch([{ room: 'session', sessionId: talk._id }]);
    const updated = collect(sessionRoom, 'questionUpdated');

    clock.advance(60_000);
    const written = await patch(question._id, { answer: '  Yes, in writing.  ' }, ada.token);
    expect(written.status).toBe(200);
    const answered = questionResponseSchema.parse(await written.json()).question;
    expect(answered).toMatchObject({
      answer: 'Yes, in writing.',
      answeredAt: clock.now().toISOString(),
      askerUsername: null,
    });
    await expect.poll(() => updated.map((e) => e.question.answer)).toContain('Yes, in writing.');
    expect(updated.every((e) => e.question.askerUsername === null)).toBe(true);
    expect(find(await list(`?sessionId=${talk._id}`), question._id)?.answer).toBe(
      'Yes, in writing.',
    );
    expect(find(await dashboard(), question._id)?.answer).toBe('Yes, in writing.');
    expect(find(await list('?askerUsername=grace&own=true', grace), question._id)?.answer).toBe(
      'Yes, in writing.',
    );

    // Edited: a new time; the admin may edit too, and sees the name.
    clock.advance(60_000);
    const edited = await patch(question._id, { answer: 'Yes, later.' }, admin);
    expect(questionResponseSchema.parse(await edited.json()).question).toMatchObject({
      answer: 'Yes, later.',
      answeredAt: clock.now().toISOString(),
      askerUsername: 'grace',
    });
    // Removed: no answer, no time.
    const removed = await patch(question._id, { answer: null }, ada.token);
    expect(questionResponseSchema.parse(await removed.json()).question).toMatchObject({
      answer: null,
      answeredAt: null,
    });
  });

  it('refuses an answer from anyone else, too long or empty, and keeps nothing of it', async () => {
    const question = await asked({ question: 'Who may answer?' });
    expect((await patch(question._id, { answer: 'Kept.' }, ada.token)).status).toBe(200);
    const refusals: [unknown, string | undefined, number, RegExp][] = [
      [{ answer: 'Not mine.' }, linus.token, 403, /another speaker/],
      [{ answer: 'No token.' }, undefined, 401, /./],
      [{ answer: 'Forged.' }, forged(ada.token), 401, /./],
      [{ answer: 'Attendee.' }, grace, 401, /./],
      [{ answer: 'x'.repeat(2001) }, ada.token, 400, /at most 2000 characters/],
      [{ answer: '   ' }, ada.token, 400, /Answer is required/],
      [{ answer: 42 }, ada.token, 400, /Answer/],
      [{ answer: 'bell\u0007' }, ada.token, 400, /not allowed/],
      [{ answer: 'Yes', answeredAt: '2020-01-01T00:00:00Z' }, ada.token, 400, /Only answered/],
    ];
    for (const [body, token, status, message] of refusals) {
      const response = await patch(question._id, body, token);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(await errorOf(response)).toMatch(message);
    }
    const tooLarge = await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
      token: ada.token,
      raw: JSON.stringify({ answer: 'x'.repeat(20_000) }),
    });
    expect(tooLarge.status).toBe(413);
    await errorOf(tooLarge);
    expect(find(await list('?limit=200'), question._id)?.answer).toBe('Kept.');
    // The longest answer is taken whole, in any script.
    const longest = '答'.repeat(2000);
    expect((await patch(question._id, { answer: longest }, ada.token)).status).toBe(200);
  });

  it('stores hostile text as text and writes it formula-safe in the admin’s CSV', async () => {
    const question = await asked({ question: 'Hostile?' });
    const hostile = '=HYPERLINK("http://evil.example","<img src=x onerror=alert(1)>")';
    const response = await patch(question._id, { answer: hostile }, ada.token);
    expect(questionResponseSchema.parse(await response.json()).question.answer).toBe(hostile);
    const row =
      (await csv('/api/admin/questions.csv', admin))
        .split('\r\n')
        .find((line) => line.includes(question._id)) ?? '';
    expect(row).toContain(
      `"'=HYPERLINK(""http://evil.example"",""<img src=x onerror=alert(1)>"")"`,
    );
  });
});

describe('a written answer’s rate limit', () => {
  const t = useTestApp({ env: { WRITE_RATE_LIMIT: '12' } });

  it('answers 429 past the write limit and keeps the last answer taken', async () => {
    const { speaker, secret } = await addSpeakerWithSecret(t.url, 'Ada Lovelace');
    const token = await speakerToken(t.url, speaker.username, secret);
    const asked = await call(t.url, 'POST', '/questions', {
      body: { speakerId: speaker._id, question: 'Fast?', askerUsername: 'grace' },
    });
    const { _id: id } = questionSchema.parse(await asked.json());
    let taken: string | null = null;
    let refused: Response | undefined;
    for (let n = 0; n < 20 && !refused; n += 1) {
      // One device (its client id): the limit counts a person, not a connection.
      const response = await fetch(`${t.url}/api/questions/${id}`, {
        method: 'PATCH',
        headers: {
          ...bearer(token),
          'content-type': 'application/json',
          [CLIENT_ID_HEADER]: 'speaker-phone',
        },
        body: JSON.stringify({ answer: `Answer ${n}` }),
      });
      if (response.status === 429) refused = response;
      else {
        expect(response.status).toBe(200);
        taken = `Answer ${n}`;
      }
    }
    if (!refused) throw new Error('never limited');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED');
    const list = await fetch(`${t.url}/api/questions/realtime?speakerId=${speaker._id}`);
    const [stored] = questionListSchema.parse(await list.json());
    expect(stored?.answer).toBe(taken);
  });
});
