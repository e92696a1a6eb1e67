import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Question,
  questionListSchema,
  questionResponseSchema,
  questionSchema,
} from '../../shared/schemas/question.ts';
import {
  type Room,
  type Session,
  roomSchema,
  sessionSchema,
} from '../../shared/schemas/programme.ts';
import { type Speaker, speakerDashboardSchema } from '../../shared/schemas/speaker.ts';
import { newId } from '../lib/ids.ts';
import { ManualClock } from '../../../tests/support/manual-clock.ts';
import {
  addSpeakerWithSecret,
  adminToken,
  call,
  collect,
  errorOf,
  forged,
  joinAttendee,
  speakerToken,
} from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';

const PASSWORD = 'session-qa-admin-password';
const HOUR = 3_600_000;

describe.each(testDatabases)('questions per session on %s', (database) => {
  // A panel of Ada and Alan runs 12:00-13:00; Ada's own talk 14:00-15:00; Linus speaks alone.
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
  let alan: SignedIn;
  let linus: SignedIn;
  let grace: string;
  let room: Room;
  let panel: Session;
  let talk: Session;

  const signUp = async (name: string): Promise<SignedIn> => {
    const { speaker, secret } = await addSpeakerWithSecret(t.url, name);
    return { speaker, token: await speakerToken(t.url, speaker.username, secret) };
  };
  const addSession = async (body: Record<string, unknown>): Promise<Session> => {
    const response = await call(t.url, 'POST', '/api/admin/sessions', { token: admin, body });
    expect(response.status).toBe(201);
    return sessionSchema.parse(await response.json());
  };
  const ask = (body: Record<string, unknown>, token?: string) =>
    call(t.url, 'POST', '/questions', {
      token,
      body: { question: 'Why?', askerUsername: 'grace', ...body },
    });
  const asked = async (body: Record<string, unknown>): Promise<Question> => {
    const response = await ask(body);
    expect(response.status, JSON.stringify(body)).toBe(201);
    return questionSchema.parse(await response.json());
  };
  const list = async (query: string): Promise<Question[]> => {
    const response = await fetch(`${t.url}/api/questions/realtime${query}`);
    expect(response.status).toBe(200);
    return questionListSchema.parse(await response.json());
  };
  const ids = (questions: Question[]) => questions.map((q) => q._id);
  const dashboard = async (who: SignedIn, token?: string) => {
    const response = await call(t.url, 'GET', `/api/speakers/${who.speaker.username}/dashboard`, {
      token,
    });
    expect(response.status).toBe(200);
    return speakerDashboardSchema.parse(await response.json()).questions;
  };
  const patch = (id: string, body: unknown, token: string | undefined) =>
    call(t.url, 'PATCH', `/api/questions/${id}`, { token, body });

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
    [ada, alan, linus] = await Promise.all([
      signUp('Ada Lovelace'),
      signUp('Alan Turing'),
      signUp('Linus Torvalds'),
    ]);
    grace = await joinAttendee(t.url, 'grace');
    const made = await call(t.url, 'POST', '/api/admin/rooms', {
      token: admin,
      body: { name: 'Main hall' },
    });
    room = roomSchema.parse(await made.json());
    panel = await addSession({
      title: 'Engines and machines',
      roomId: room._id,
      startsAt: '2026-03-28T12:00:00Z',
      endsAt: '2026-03-28T13:00:00Z',
      speakerIds: [ada.speaker._id, alan.speaker._id],
    });
    talk = await addSession({
      title: 'Notes on the engine',
      roomId: room._id,
      startsAt: '2026-03-28T14:00:00Z',
      endsAt: '2026-03-28T15:00:00Z',
      speakerIds: [ada.speaker._id],
    });
  });

  it('asks a panel as a whole: no speaker, the session’s title, in every panellist’s dashboard', async () => {
    const question = await asked({ sessionId: panel._id, question: 'Who built the first one?' });
    expect(question).toMatchObject({
      speakerId: null,
      speakerName: 'Engines and machines',
      sessionId: panel._id,
      status: 'published',
    });
    expect(ids(await list(`?sessionId=${panel._id}`))).toContain(question._id);
    expect(ids(await list(''))).toContain(question._id);
    // Not one speaker's: the spec's per-speaker list does not hold it.
    for (const who of [ada, alan]) {
      expect(ids(await list(`?speakerId=${who.speaker._id}`))).not.toContain(question._id);
      expect(ids(await dashboard(who))).toContain(question._id);
      expect(ids(await dashboard(who, who.token))).toContain(question._id);
    }
    expect(ids(await dashboard(linus))).not.toContain(question._id);
    // The same text again from the same asker to the same panel is a 409.
    const again = await ask({ sessionId: panel._id, question: 'Who built the first one?' });
    expect(again.status).toBe(409);
  });

  it('asks one speaker of a session; refuses another speaker, an unknown or cancelled session', async () => {
    const question = await asked({ sessionId: panel._id, speakerId: alan.speaker._id });
    expect(question).toMatchObject({
      speakerId: alan.speaker._id,
      speakerName: 'Alan Turing',
      sessionId: panel._id,
    });
    expect(ids(await list(`?speakerId=${alan.speaker._id}`))).toContain(question._id);
    expect(ids(await dashboard(ada))).toContain(question._id);

    const before = (await list('?limit=200')).length;
    const refusals: [Record<string, unknown>, number, RegExp][] = [
      [{ sessionId: panel._id, speakerId: linus.speaker._id }, 400, /no speaker of this session/],
      [{ sessionId: panel._id, speakerId: newId() }, 400, /no speaker of this session/],
      [{ sessionId: newId() }, 400, /no session/],
      [{ sessionId: 'panel' }, 400, /sessionId must be a session id/],
      [{ sessionId: 42 }, 400, /sessionId/],
      [{ sessionId: null }, 400, /sessionId/],
      [{ sessionId: panel._id, speakerId: 'ada' }, 400, /Unknown speaker id/],
      [{}, 400, /Speaker is required/],
    ];
    for (const [body, status, message] of refusals) {
      const response = await ask({ ...body, question: 'Refused?' });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(await errorOf(response)).toMatch(message);
    }

    const cancelled = await addSession({
      title: 'Called off',
      roomId: room._id,
      startsAt: '2026-03-28T12:00:00Z',
      endsAt: '2026-03-28T13:00:00Z',
      speakerIds: [linus.speaker._id],
      cancelled: true,
    });
    for (const body of [
      { sessionId: cancelled._id },
      { sessionId: cancelled._id, speakerId: linus.speaker._id },
    ]) {
      const response = await ask({ ...body, question: 'Still on?' });
      expect(response.status).toBe(409);
      expect(await errorOf(response)).toMatch(/cancelled/);
    }
    // Linus's own call still works: his only session is cancelled, so it is in none.
    const own = await asked({ speakerId: linus.speaker._id, question: 'Still on?' });
    expect(own.sessionId).toBeNull();
    expect((await list('?limit=200')).length).toBe(before + 1);
  });

  it('lands the spec’s per-speaker call in the session the speaker is on now, by the clock', async () => {
    const during = await asked({ speakerId: ada.speaker._id, speakerName: 'x', question: 'Now?' });
    expect(during).toMatchObject({ speakerId: ada.speaker._id, sessionId: panel._id });
    expect(ids(await dashboard(alan))).toContain(during._id);
    expect(ids(await list(`?sessionId=${panel._id}`))).toContain(during._id);

    clock.advance(HOUR); // 13:30: between the two
    const between = await asked({ speakerId: ada.speaker._id, question: 'Between?' });
    expect(between.sessionId).toBeNull();
    expect(ids(await dashboard(alan))).not.toContain(between._id);

    clock.advance(HOUR); // 14:30: Ada's own talk
    const later = await asked({ speakerId: ada.speaker._id, question: 'Later?' });
    expect(later.sessionId).toBe(talk._id);
    expect(ids(await list(`?sessionId=${talk._id}`))).toEqual([later._id]);
    clock.advance(-2 * HOUR);
  });

  it('filters the realtime list by session, with its own ETag', async () => {
    const url = `${t.url}/api/questions/realtime?sessionId=${talk._id}`;
    const first = await fetch(url);
    const tag = first.headers.get('etag') ?? '';
    expect(tag).not.toBe('');
    expect((await fetch(url, { headers: { 'if-none-match': tag } })).status).toBe(304);
    // A question in another session leaves this list's version alone.
    await asked({ sessionId: panel._id, question: 'Elsewhere?' });
    expect((await fetch(url, { headers: { 'if-none-match': tag } })).status).toBe(304);
    const mine = await asked({ sessionId: talk._id, question: 'Here?' });
    const changed = await fetch(url, { headers: { 'if-none-match': tag } });
    expect(changed.status).toBe(200);
    expect(ids(questionListSchema.parse(await changed.json()))).toContain(mine._id);
    // Combined with the other filters, and refused when malformed.
    expect(ids(await list(`?sessionId=${talk._id}&askerUsername=nobody`))).toEqual([]);
    const bad = await fetch(`${t.url}/api/questions/realtime?sessionId=talk`);
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatch(/sessionId/);
  });

  it('lets every speaker of a panel moderate its questions, and nobody else', async () => {
    const question = await asked({ sessionId: panel._id, question: 'Moderate me?' });
    const ofAda = await asked({
      sessionId: panel._id,
      speakerId: ada.speaker._id,
      question: 'Ada?',
    });
    for (const [who, id] of [
      [ada, question._id],
      [alan, question._id],
      [alan, ofAda._id],
    ] as const) {
      const response = await patch(id, { answered: true }, who.token);
      expect(response.status).toBe(200);
      expect(questionResponseSchema.parse(await response.json()).question.answered).toBe(true);
    }
    // Another speaker: 403; an attendee, a forged token, none: 401; the admin may.
    const refused = await patch(question._id, { status: 'hidden' }, linus.token);
    expect(refused.status).toBe(403);
    await errorOf(refused);
    for (const token of [grace, forged(ada.token), undefined]) {
      expect((await patch(question._id, { status: 'hidden' }, token)).status).toBe(401);
    }
    expect((await patch(question._id, { answered: false }, admin)).status).toBe(200);
    // Hidden by one panellist: gone from the public lists, kept for both of them.
    expect((await patch(question._id, { status: 'hidden' }, alan.token)).status).toBe(200);
    expect(ids(await list(`?sessionId=${panel._id}`))).not.toContain(question._id);
    expect(ids(await dashboard(ada))).not.toContain(question._id);
    const moderated = await dashboard(ada, ada.token);
    expect(moderated.find((q) => q._id === question._id)?.status).toBe('hidden');
    expect((await patch(question._id, { status: 'published' }, ada.token)).status).toBe(200);
  });

  it('pins one question per session; a question outside sessions keeps its own pin', async () => {
    clock.advance(HOUR); // 13:30: Ada is on no session
    const outside = await asked({ speakerId: ada.speaker._id, question: 'Outside?' });
    clock.advance(-HOUR);
    const first = await asked({ sessionId: panel._id, question: 'Pin one?' });
    const second = await asked({
      sessionId: panel._id,
      speakerId: alan.speaker._id,
      question: 'Pin two?',
    });
    expect((await patch(outside._id, { pinned: true }, ada.token)).status).toBe(200);
    expect((await patch(first._id, { pinned: true }, ada.token)).status).toBe(200);
    const watcher = await watch([{ room: 'session', sessionId: panel._id }]);
    const updates = collect(watcher, 'questionUpdated');
    expect((await patch(second._id, { pinned: true }, alan.token)).status).toBe(200);
    const pinned = (await list('?limit=200')).filter((q) => q.pinned).map((q) => q._id);
    expect(pinned).toContain(second._id);
    expect(pinned).toContain(outside._id);
    expect(pinned).not.toContain(first._id);
    await expect
      .poll(() => updates.some((u) => u.question._id === first._id && !u.question.pinned))
      .toBe(true);
  });

  it('sends a session’s question to its room and to each of its speakers’ rooms only', async () => {
    const sessionRoom = await watch([{ room: 'session', sessionId: panel._id }]);
    const adaRoom = await watch([{ room: 'speaker', speakerId: ada.speaker._id }]);
    const alanModeration = await watch([{ room: 'moderation', token: alan.token }]);
    const linusRoom = await watch([
      { room: 'speaker', speakerId: linus.speaker._id },
      { room: 'moderation', token: linus.token },
      { room: 'session', sessionId: talk._id },
    ]);
    const heard = {
      session: collect(sessionRoom, 'newQuestion'),
      ada: collect(adaRoom, 'newQuestion'),
      alan: collect(alanModeration, 'newQuestion'),
      linus: collect(linusRoom, 'newQuestion'),
    };
    const updated = {
      session: collect(sessionRoom, 'questionUpdated'),
      ada: collect(adaRoom, 'questionUpdated'),
      alan: collect(alanModeration, 'questionUpdated'),
      linus: collect(linusRoom, 'questionUpdated'),
    };
    const deleted = {
      session: collect(sessionRoom, 'questionDeleted'),
      ada: collect(adaRoom, 'questionDeleted'),
      alan: collect(alanModeration, 'questionDeleted'),
      linus: collect(linusRoom, 'questionDeleted'),
    };
    const question = await asked({ sessionId: panel._id, question: 'Live?' });
    for (const room of ['session', 'ada', 'alan'] as const) {
      await expect.poll(() => heard[room].map((e) => e.question._id)).toContain(question._id);
    }
    expect(heard.session[0]?.speakerId).toBeNull();
    // A vote reaches them too (coalesced), and the deletion.
    const vote = await call(t.url, 'PUT', `/api/questions/${question._id}/vote`, { token: grace });
    expect(vote.status).toBe(200);
    for (const room of ['session', 'ada', 'alan'] as const) {
      await expect.poll(() => updated[room].some((e) => e.question.votes === 1)).toBe(true);
    }
    expect(
      (await call(t.url, 'DELETE', `/api/questions/${question._id}`, { token: admin })).status,
    ).toBe(200);
    for (const room of ['session', 'ada', 'alan'] as const) {
      await expect.poll(() => deleted[room].map((e) => e.id)).toContain(question._id);
    }
    // Linus, in none of these rooms' audiences, heard nothing of it.
    expect(heard.linus).toEqual([]);
    expect(updated.linus).toEqual([]);
    expect(deleted.linus).toEqual([]);
  });

  it('keeps a pending panel question for its speakers and the admin until one publishes it', async () => {
    const settings = await call(t.url, 'PUT', '/api/admin/settings', {
      token: admin,
      body: { moderateQuestions: true },
    });
    expect(settings.status).toBe(200);
    try {
      const sessionRoom = await watch([{ room: 'session', sessionId: panel._id }]);
      const alanModeration = await watch([{ room: 'moderation', token: alan.token }]);
      const publicHeard = collect(sessionRoom, 'newQuestion');
      const moderatorHeard = collect(alanModeration, 'newQuestion');
      const question = await asked({ sessionId: panel._id, question: 'Pending?' });
      expect(question.status).toBe('pending');
      await expect.poll(() => moderatorHeard.map((e) => e.question._id)).toContain(question._id);
      expect(publicHeard).toEqual([]);
      expect(ids(await list(`?sessionId=${panel._id}`))).not.toContain(question._id);
      expect(ids(await dashboard(ada, ada.token))).toContain(question._id);
      expect(ids(await dashboard(ada))).not.toContain(question._id);
      expect((await patch(question._id, { status: 'published' }, alan.token)).status).toBe(200);
      expect(ids(await list(`?sessionId=${panel._id}`))).toContain(question._id);
    } finally {
      await call(t.url, 'PUT', '/api/admin/settings', {
        token: admin,
        body: { moderateQuestions: false },
      });
    }
  });
});
