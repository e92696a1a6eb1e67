import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../tests/support/manual-clock.ts';
import { seedMemories } from '../../../tests/support/seed-memories.ts';
import {
  adminToken,
  bearer,
  call,
  collect,
  joinAttendee,
} from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';
import {
  type Poll,
  leaderboardSchema,
  pollListSchema,
  pollSchema,
} from '../../shared/schemas/poll.ts';
import { attendeeExportSchema, erasureResponseSchema } from '../../shared/schemas/privacy.ts';
import { reportedMemoriesSchema } from '../../shared/schemas/report.ts';

const PASSWORD = 'erasure-of-polls-admin-password';

const choices = [
  { id: 'rs', text: 'Rust' },
  { id: 'go', text: 'Go' },
  { id: 'zig', text: 'Zig' },
];

/** One poll of each type, and what grace and linus answer to it. */
const POLLS: { setup: Record<string, unknown>; grace: unknown; linus: unknown }[] = [
  {
    setup: { title: 'Favourite?', type: 'single', options: choices },
    grace: { optionIds: ['rs'] },
    linus: { optionIds: ['go'] },
  },
  {
    setup: { title: 'Used?', type: 'multiple', options: choices },
    grace: { optionIds: ['rs', 'zig'] },
    linus: { optionIds: ['go', 'rs'] },
  },
  {
    setup: { title: 'Rate the talk', type: 'rating', maxRating: 5 },
    grace: { rating: 1 },
    linus: { rating: 4 },
  },
  {
    setup: { title: 'In a word', type: 'wordcloud' },
    grace: { text: 'safety, speed' },
    linus: { text: 'speed, kernel' },
  },
  {
    setup: { title: 'Anything else?', type: 'open' },
    grace: { text: 'Grace’s thought' },
    linus: { text: 'Linus’s thought' },
  },
  {
    setup: { title: 'Rank them', type: 'ranking', options: choices },
    grace: { ranking: ['zig', 'rs', 'go'] },
    linus: { ranking: ['go', 'rs', 'zig'] },
  },
  {
    setup: { title: 'Compiled?', type: 'quiz', options: choices, correctOptionIds: ['rs', 'go'] },
    grace: { optionIds: ['rs', 'go'] },
    linus: { optionIds: ['go', 'rs'] },
  },
];

describe.each(testDatabases)('erasure and export of poll answers and reports on %s', (database) => {
  const clock = new ManualClock('2026-11-27T09:00:00.000Z');
  const t = useTestApp({
    database,
    clock,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '100000', LOG_LEVEL: 'error' },
  });
  const watch = useWatchingSockets(t);
  let admin: string;

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
  });

  const vote = async (id: string, token: string, body: unknown) => {
    const response = await call(t.url, 'PUT', `/api/polls/${id}/vote`, { token, body });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  /** Opens one poll of each type, results shown, answered by both attendees. */
  const answeredPolls = async (grace: string, linus: string): Promise<Poll[]> => {
    const polls: Poll[] = [];
    for (const { setup, grace: hers, linus: his } of POLLS) {
      const created = await call(t.url, 'POST', '/api/polls', { token: admin, body: setup });
      expect(created.status, await created.clone().text()).toBe(201);
      const { _id } = pollSchema.parse(await created.json());
      const opened = await call(t.url, 'PATCH', `/api/polls/${_id}`, {
        token: admin,
        body: { state: 'open', resultsVisible: true },
      });
      expect(opened.status).toBe(200);
      await vote(_id, grace, hers);
      clock.advance(30_000);
      await vote(_id, linus, his);
      polls.push(pollSchema.parse(await opened.json()));
    }
    return polls;
  };
  const asAdmin = async (): Promise<Map<string, Poll>> => {
    const response = await call(t.url, 'GET', '/api/polls?event=1', { token: admin });
    expect(response.status).toBe(200);
    return new Map(pollListSchema.parse(await response.json()).map((poll) => [poll._id, poll]));
  };
  const erase = async (token: string) => {
    const response = await fetch(`${t.url}/api/attendees/me`, {
      method: 'DELETE',
      headers: bearer(token),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return erasureResponseSchema.parse(await response.json()).removed;
  };
  const exportOf = async (token: string) => {
    const response = await fetch(`${t.url}/api/attendees/me/export`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    return attendeeExportSchema.parse(await response.json());
  };
  const report = async (memoryId: string, token: string, reason: string) => {
    const response = await call(t.url, 'POST', `/api/memories/${memoryId}/report`, {
      token,
      body: { reason, category: 'notConsented' },
    });
    expect(response.status).toBe(202);
  };
  /** A memory's open reports and status, as stored. */
  const stored = (memoryId: string) =>
    t.app.deps.db
      .selectFrom('memories')
      .select(['open_reports', 'status'])
      .where('id', '=', memoryId)
      .executeTakeFirstOrThrow();

  it('takes back every answer of an erased attendee: results, voters, lists and leaderboards keep only the others’, live', async () => {
    const grace = await joinAttendee(t.url, 'grace');
    const linus = await joinAttendee(t.url, 'linus');
    const polls = await answeredPolls(grace, linus);
    const [single, multiple, rating, cloud, open, ranking, quiz] = polls.map((p) => p._id);
    // A closed poll loses its answer too.
    expect(
      (
        await call(t.url, 'PATCH', `/api/polls/${quiz}`, {
          token: admin,
          body: { state: 'closed' },
        })
      ).status,
    ).toBe(200);
    const board = async () =>
      leaderboardSchema.parse(
        await (await call(t.url, 'GET', `/api/polls/${quiz}/leaderboard`)).json(),
      ).entries;
    expect((await board()).map((entry) => entry.username)).toEqual(['grace', 'linus']);

    const watcher = await watch();
    const updates = collect(watcher, 'pollUpdated');
    expect(await erase(grace)).toMatchObject({ pollAnswers: POLLS.length });

    const after = await asAdmin();
    for (const poll of polls) expect(after.get(poll._id)?.voters).toBe(1);
    expect(after.get(single ?? '')?.results).toEqual({
      options: [
        { id: 'rs', count: 0 },
        { id: 'go', count: 1 },
        { id: 'zig', count: 0 },
      ],
    });
    expect(after.get(multiple ?? '')?.results).toEqual({
      options: [
        { id: 'rs', count: 1 },
        { id: 'go', count: 1 },
        { id: 'zig', count: 0 },
      ],
    });
    expect(after.get(rating ?? '')?.results).toEqual({ average: 4, counts: [0, 0, 0, 1, 0] });
    expect(after.get(cloud ?? '')?.results).toEqual({
      words: [
        { text: 'kernel', count: 1 },
        { text: 'speed', count: 1 },
      ],
    });
    expect(after.get(open ?? '')?.results).toMatchObject({
      answers: [{ text: 'Linus’s thought', hidden: false }],
    });
    expect(after.get(ranking ?? '')?.results).toEqual({
      options: [
        { id: 'rs', points: 1 },
        { id: 'go', points: 2 },
        { id: 'zig', points: 0 },
      ],
    });
    expect(after.get(quiz ?? '')?.results).toMatchObject({
      options: [
        { id: 'rs', count: 1 },
        { id: 'go', count: 1 },
        { id: 'zig', count: 0 },
      ],
    });
    expect((await board()).map((entry) => entry.username)).toEqual(['linus']);
    // The admin's CSV of results no longer has her answer.
    const csv = await (await call(t.url, 'GET', '/api/admin/polls.csv', { token: admin })).text();
    expect(csv).not.toContain('Grace’s thought');

    // Every screen watching a poll gets its new results.
    await expect
      .poll(() =>
        polls.every(
          (poll) => updates.filter((u) => u.poll._id === poll._id).at(-1)?.poll.voters === 1,
        ),
      )
      .toBe(true);
    const lastCloud = updates.filter((u) => u.poll._id === cloud).at(-1);
    expect(lastCloud?.poll.results).toEqual(after.get(cloud ?? '')?.results);

    // The others answer on as before; the counts they move start from the erased one's absence.
    const ada = await joinAttendee(t.url, 'ada');
    await vote(single ?? '', ada, { optionIds: ['rs'] });
    expect((await asAdmin()).get(single ?? '')?.voters).toBe(2);
  });

  it('exports the attendee’s poll answers in words and the reports they made; erasure removes those reports, a hidden memory stays hidden', async () => {
    const grace = await joinAttendee(t.url, 'grace2');
    const linus = await joinAttendee(t.url, 'linus2');
    const polls = await answeredPolls(grace, linus);
    const [memory, other] = await seedMemories(t.app.deps, [
      { username: 'pat', text: 'group photo' },
      { username: 'pat', text: 'stage' },
    ]);
    if (!memory || !other) throw new Error('no memory');
    const [ada, bob] = await Promise.all([
      joinAttendee(t.url, 'ada2'),
      joinAttendee(t.url, 'bob2'),
    ]);
    await report(memory._id, grace, 'That is me, I did not agree');
    await report(memory._id, ada, 'Me too');
    await report(other._id, grace, 'Also me');
    // Kept by the admin: grace's report of it is dismissed, in no count.
    const kept = await call(t.url, 'PATCH', `/api/media/${other._id}`, {
      token: admin,
      body: { status: 'published' },
    });
    expect(kept.status).toBe(200);
    // A third person hides the memory (3 reports by default).
    await report(memory._id, bob, 'Not mine, but still');
    expect(await stored(memory._id)).toEqual({ open_reports: 3, status: 'pending' });
    expect((await fetch(`${t.url}/api/memory/${memory._id}`)).status).toBe(404);

    const exported = await exportOf(grace);
    expect(exported.pollAnswers).toEqual([
      expect.objectContaining({
        title: 'Favourite?',
        type: 'single',
        answer: { options: ['Rust'] },
      }),
      expect.objectContaining({ type: 'multiple', answer: { options: ['Rust', 'Zig'] } }),
      expect.objectContaining({ type: 'rating', answer: { rating: 1 } }),
      expect.objectContaining({ type: 'wordcloud', answer: { words: ['safety', 'speed'] } }),
      expect.objectContaining({ type: 'open', answer: { text: 'Grace’s thought' } }),
      expect.objectContaining({ type: 'ranking', answer: { ranking: ['Zig', 'Rust', 'Go'] } }),
      expect.objectContaining({ type: 'quiz', answer: { options: ['Rust', 'Go'] } }),
    ]);
    expect(exported.pollAnswers.map((answer) => answer.pollId)).toEqual(polls.map((p) => p._id));
    expect(
      exported.pollAnswers.every((answer) => !Number.isNaN(Date.parse(answer.answeredAt))),
    ).toBe(true);
    // An open quiz's points would tell whether the answer is right.
    expect(exported.pollAnswers.some((answer) => 'points' in answer)).toBe(false);
    expect(exported.reports).toEqual([
      {
        memoryId: memory._id,
        category: 'notConsented',
        reason: 'That is me, I did not agree',
        reportedAt: expect.any(String) as string,
      },
      {
        memoryId: other._id,
        category: 'notConsented',
        reason: 'Also me',
        reportedAt: expect.any(String) as string,
      },
    ]);
    // Nobody else's answers or reports.
    expect(JSON.stringify(exported)).not.toContain('Linus’s thought');
    expect(JSON.stringify(exported)).not.toContain('Me too');
    // A closed quiz's points are theirs to see.
    const quiz = polls.at(-1)?._id ?? '';
    await call(t.url, 'PATCH', `/api/polls/${quiz}`, { token: admin, body: { state: 'closed' } });
    const closed = (await exportOf(grace)).pollAnswers.find((answer) => answer.pollId === quiz);
    expect(closed?.points).toBeGreaterThan(0);

    const moderator = await watch([{ room: 'moderation', token: admin }]);
    const changes = collect(moderator, 'reportsChanged');
    await erase(grace);
    // One open report fewer; hidden until the admin decides.
    expect(await stored(memory._id)).toEqual({ open_reports: 2, status: 'pending' });
    expect((await fetch(`${t.url}/api/memory/${memory._id}`)).status).toBe(404);
    const list = reportedMemoriesSchema.parse(
      await (await call(t.url, 'GET', '/api/admin/reports', { token: admin })).json(),
    );
    const entry = list.find((e) => e.memory._id === memory._id);
    expect(entry?.reporters).toBe(2);
    expect(entry?.reports.map((r) => r.reason).sort()).toEqual(['Me too', 'Not mine, but still']);
    const rows = await t.app.deps.db
      .selectFrom('memory_reports')
      .select('reason')
      .where('memory_id', 'in', [memory._id, other._id])
      .execute();
    expect(rows.map((row) => row.reason).sort()).toEqual(['Me too', 'Not mine, but still']);
    await expect.poll(() => changes.map((change) => change.memoryId)).toContain(memory._id);
    // The other attendee's export is untouched.
    const linusExport = await exportOf(linus);
    expect(linusExport.pollAnswers).toHaveLength(POLLS.length);
  });
});
