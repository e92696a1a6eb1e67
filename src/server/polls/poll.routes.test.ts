import { beforeAll, describe, expect, it } from 'vitest';
import { pollDeletedEventSchema, pollUpdatedEventSchema } from '../../shared/events.ts';
import {
  type Poll,
  leaderboardSchema,
  pollListSchema,
  pollResponseSchema,
  pollSchema,
} from '../../shared/schemas/poll.ts';
import { adminStatsSchema } from '../../shared/schemas/settings.ts';
import { newId } from '../lib/ids.ts';
import { findPoll, recordResponse } from './poll.repository.ts';
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

const PASSWORD = 'polls-admin-password';

describe.each(testDatabases)('polls on %s', (database) => {
  const clock = new ManualClock('2026-11-27T09:00:00.000Z');
  const t = useTestApp({
    database,
    clock,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '100000', LOG_LEVEL: 'error' },
  });
  const watch = useWatchingSockets(t);
  let admin: string;
  let grace: string;
  let linus: string;

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
    grace = await joinAttendee(t.url, 'grace');
    linus = await joinAttendee(t.url, 'linus');
  });

  /** Attendees made straight from the signer (no join, no proof of work). */
  const attendees = (count: number, prefix: string) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        t.app.deps.callers.signAttendee({ id: newId(), username: `${prefix}${i}` }),
      ),
    );

  const create = async (body: Record<string, unknown>, token = admin): Promise<Poll> => {
    const response = await call(t.url, 'POST', '/api/polls', { token, body });
    expect(response.status, await response.clone().text()).toBe(201);
    return pollSchema.parse(await response.json());
  };
  const patch = (id: string, body: Record<string, unknown>, token = admin) =>
    call(t.url, 'PATCH', `/api/polls/${id}`, { token, body });
  const open = async (body: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const poll = await create(body);
    const response = await patch(poll._id, { state: 'open', ...extra });
    expect(response.status).toBe(200);
    return pollSchema.parse(await response.json());
  };
  const vote = (id: string, token: string | undefined, body: unknown) =>
    call(t.url, 'PUT', `/api/polls/${id}/vote`, { token, body });
  const voted = async (id: string, token: string, body: unknown): Promise<Poll> => {
    const response = await vote(id, token, body);
    expect(response.status, await response.clone().text()).toBe(200);
    return pollResponseSchema.parse(await response.json()).poll;
  };
  const eventPolls = async (token?: string): Promise<Poll[]> => {
    const response = await call(t.url, 'GET', '/api/polls?event=1', { token });
    expect(response.status).toBe(200);
    return pollListSchema.parse(await response.json());
  };
  const asAdmin = async (id: string) => (await eventPolls(admin)).find((p) => p._id === id);
  const asPublic = async (id: string) => (await eventPolls()).find((p) => p._id === id);
  const choices = [{ text: 'Rust' }, { text: 'Go' }, { text: 'Zig' }];

  describe('creating and running a poll', () => {
    it('makes a draft that only its owner lists, and opens, closes and re-opens it', async () => {
      const poll = await create({ title: 'Best language?', type: 'single', options: choices });
      expect(poll).toMatchObject({
        sessionId: null,
        state: 'draft',
        resultsVisible: false,
        voters: 0,
        maxRating: 5,
        options: [
          { id: '1', text: 'Rust' },
          { id: '2', text: 'Go' },
          { id: '3', text: 'Zig' },
        ],
      });
      expect(await asPublic(poll._id)).toBeUndefined();
      expect((await asAdmin(poll._id))?.state).toBe('draft');
      expect((await vote(poll._id, grace, { optionIds: ['1'] })).status).toBe(409);

      const opened = pollSchema.parse(await (await patch(poll._id, { state: 'open' })).json());
      expect(opened.state).toBe('open');
      expect((await asPublic(poll._id))?.results).toBeNull();
      await voted(poll._id, grace, { optionIds: ['2'] });
      expect((await patch(poll._id, { state: 'closed' })).status).toBe(200);
      const closed = await vote(poll._id, linus, { optionIds: ['1'] });
      expect(closed.status).toBe(409);
      expect(await errorOf(closed)).toBe('This poll is not open for answers');
      // Re-opened, it keeps its votes.
      expect((await patch(poll._id, { state: 'open' })).status).toBe(200);
      const after = await voted(poll._id, linus, { optionIds: ['1'] });
      expect(after.voters).toBe(2);
      expect((await asAdmin(poll._id))?.results).toEqual({
        options: [
          { id: '1', count: 1 },
          { id: '2', count: 1 },
          { id: '3', count: 0 },
        ],
      });
      // A poll cannot go back to a draft, and its options no longer change.
      expect((await patch(poll._id, { state: 'draft' })).status).toBe(409);
      expect((await patch(poll._id, { title: 'Renamed' })).status).toBe(409);
    });

    it('edits a draft: title, options, rating range', async () => {
      const poll = await create({ title: 'Draft', type: 'rating' });
      const response = await patch(poll._id, { title: 'How was it?', maxRating: 10 });
      expect(response.status).toBe(200);
      expect(pollSchema.parse(await response.json())).toMatchObject({
        title: 'How was it?',
        maxRating: 10,
      });
    });

    it('refuses setups that do not fit the type with a 400', async () => {
      const bad: Record<string, unknown>[] = [
        { title: 'x', type: 'single', options: [{ text: 'only one' }] },
        { title: 'x', type: 'single' },
        { title: 'x', type: 'rating', options: choices },
        { title: 'x', type: 'quiz', options: choices },
        { title: 'x', type: 'quiz', options: choices, correctOptionIds: ['9'] },
        { title: 'x', type: 'single', options: choices, correctOptionIds: ['1'] },
        { title: 'x', type: 'single', options: [{ id: 'a', text: 'A' }, { text: 'B' }] },
        {
          title: 'x',
          type: 'single',
          options: [
            { id: 'a', text: 'A' },
            { id: 'a', text: 'B' },
          ],
        },
        {
          title: 'x',
          type: 'single',
          options: [
            { id: '<b>', text: 'A' },
            { id: 'b', text: 'B' },
          ],
        },
        { title: 'x', type: 'rating', maxRating: 1 },
        { title: 'x', type: 'rating', maxRating: 11 },
        { title: 'x', type: 'poll' },
        { title: '', type: 'open' },
        { title: 'a'.repeat(301), type: 'open' },
        { title: 'x', type: 'open', state: 'open' },
        { title: 'x', type: 'open', sessionId: 'not-an-id' },
        { title: 'x', type: 'single', options: Array.from({ length: 21 }, () => ({ text: 'o' })) },
      ];
      for (const body of bad) {
        const response = await call(t.url, 'POST', '/api/polls', { token: admin, body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(await errorOf(response)).toBeTruthy();
      }
      const raw = await call(t.url, 'POST', '/api/polls', { token: admin, raw: '{"title":' });
      expect(raw.status).toBe(400);
      const huge = await call(t.url, 'POST', '/api/polls', {
        token: admin,
        body: { title: 'x', type: 'open', pad: 'x'.repeat(20_000) },
      });
      expect(huge.status).toBe(413);
    });

    it('keeps hostile text as text', async () => {
      const title = '<script>alert(1)</script> & "quotes" \u202Eevil';
      const poll = await create({
        title,
        type: 'single',
        options: [{ text: '<img src=x>' }, { text: '&amp;' }],
      });
      expect(poll.title).toBe(title);
      expect(poll.options[0]?.text).toBe('<img src=x>');
    });

    it('lets only the admin run event-wide polls: 401 without a token, 403 for a speaker', async () => {
      const body = { title: 'x', type: 'open' };
      expect((await call(t.url, 'POST', '/api/polls', { body })).status).toBe(401);
      for (const token of [grace, forged(admin), 'nonsense']) {
        expect((await call(t.url, 'POST', '/api/polls', { token, body })).status).toBe(401);
      }
      const poll = await create(body);
      for (const token of [undefined, grace, forged(admin)]) {
        const body = { state: 'open' };
        expect((await call(t.url, 'PATCH', `/api/polls/${poll._id}`, { token, body })).status).toBe(
          401,
        );
        expect((await call(t.url, 'DELETE', `/api/polls/${poll._id}`, { token })).status).toBe(401);
        expect((await call(t.url, 'POST', `/api/polls/${poll._id}/reset`, { token })).status).toBe(
          401,
        );
      }
      expect((await patch(newId(), { state: 'open' })).status).toBe(404);
      expect((await patch('nope', { state: 'open' })).status).toBe(400);
      expect((await call(t.url, 'DELETE', `/api/polls/${newId()}`, { token: admin })).status).toBe(
        404,
      );
    });

    it('answers the list with an ETag and 304, per caller', async () => {
      const first = await call(t.url, 'GET', '/api/polls?event=1');
      const tag = first.headers.get('etag') ?? '';
      expect(first.headers.get('vary')).toMatch(/authorization/i);
      const again = await fetch(`${t.url}/api/polls?event=1`, {
        headers: { 'if-none-match': tag },
      });
      expect(again.status).toBe(304);
      const owner = await call(t.url, 'GET', '/api/polls?event=1', { token: admin });
      expect(owner.headers.get('etag')).not.toBe(tag);
      expect((await call(t.url, 'GET', '/api/polls')).status).toBe(400);
      expect((await call(t.url, 'GET', `/api/polls?event=1&sessionId=${newId()}`)).status).toBe(
        400,
      );
      expect((await call(t.url, 'GET', `/api/polls?sessionId=${newId()}`)).status).toBe(200);
    });
  });

  describe('answers of every type', () => {
    it('single: one option of its own', async () => {
      const poll = await open({ title: 'One', type: 'single', options: choices });
      for (const body of [
        { optionIds: ['1', '2'] },
        { optionIds: ['9'] },
        { optionIds: [] },
        { rating: 3 },
        { text: 'Rust' },
        { ranking: ['1', '2', '3'] },
        {},
        { optionIds: ['1'], extra: true },
        { optionIds: 'x' },
      ]) {
        const response = await vote(poll._id, grace, body);
        expect(response.status, JSON.stringify(body)).toBe(400);
      }
      expect((await vote(poll._id, grace, { optionIds: ['1'] })).status).toBe(200);
    });

    it('multiple: one or more, each once', async () => {
      const poll = await open({ title: 'Many', type: 'multiple', options: choices });
      expect((await vote(poll._id, grace, { optionIds: ['1', '1'] })).status).toBe(400);
      await voted(poll._id, grace, { optionIds: ['1', '3'] });
      await voted(poll._id, linus, { optionIds: ['3'] });
      expect((await asAdmin(poll._id))?.results).toEqual({
        options: [
          { id: '1', count: 1 },
          { id: '2', count: 0 },
          { id: '3', count: 2 },
        ],
      });
    });

    it('rating: 1..maxRating, with its average and distribution', async () => {
      const poll = await open({ title: 'Rate', type: 'rating', maxRating: 4 });
      for (const rating of [0, 5, -1]) {
        expect((await vote(poll._id, grace, { rating })).status).toBe(400);
      }
      expect((await vote(poll._id, grace, { rating: 2.5 })).status).toBe(400);
      await voted(poll._id, grace, { rating: 4 });
      await voted(poll._id, linus, { rating: 1 });
      const [third] = await attendees(1, 'rater');
      await voted(poll._id, third ?? '', { rating: 4 });
      expect((await asAdmin(poll._id))?.results).toEqual({ average: 3, counts: [1, 0, 0, 2] });
    });

    it('word cloud: up to 3 words, normalised; filler, short and removed words left out', async () => {
      const poll = await open({ title: 'One word', type: 'wordcloud' }, { resultsVisible: true });
      expect((await vote(poll._id, grace, { text: 'a, b, c, d' })).status).toBe(400);
      expect((await vote(poll._id, grace, { optionIds: ['1'] })).status).toBe(400);
      expect((await vote(poll._id, grace, { text: 'x'.repeat(41) })).status).toBe(400);
      await voted(poll._id, grace, { text: 'ＲＵＳＴ,  Type   Safety ,ok' });
      await voted(poll._id, linus, { text: 'rust\nthe\n🚀' });
      const [third] = await attendees(1, 'cloud');
      const after = await voted(poll._id, third ?? '', { text: 'Rust; 東京; type safety' });
      expect(after.results).toEqual({
        words: [
          { text: 'rust', count: 3 },
          { text: 'type safety', count: 2 },
          { text: '東京', count: 1 },
          { text: '🚀', count: 1 },
        ],
      });
      // The owner removes a word: gone now and from later answers.
      const removed = await call(t.url, 'DELETE', `/api/polls/${poll._id}/words/Type%20Safety`, {
        token: admin,
      });
      expect(removed.status).toBe(200);
      const [fourth] = await attendees(1, 'cloud2');
      const later = await voted(poll._id, fourth ?? '', { text: 'type safety' });
      expect(later.results && 'words' in later.results && later.results.words).toEqual([
        { text: 'rust', count: 3 },
        { text: '東京', count: 1 },
        { text: '🚀', count: 1 },
      ]);
      expect(later.voters).toBe(4);
      expect(
        (await call(t.url, 'DELETE', `/api/polls/${poll._id}/words/rust`, { token: grace })).status,
      ).toBe(401);
    });

    it('open: up to 500 characters, listed, hidden by the owner', async () => {
      const poll = await open({ title: 'Say it', type: 'open' }, { resultsVisible: true });
      expect((await vote(poll._id, grace, { text: 'x'.repeat(501) })).status).toBe(400);
      expect((await vote(poll._id, grace, { text: '   ' })).status).toBe(400);
      expect((await vote(poll._id, grace, { text: 'bad\u0000byte' })).status).toBe(400);
      await voted(poll._id, grace, { text: 'First thought' });
      const replaced = await voted(poll._id, grace, { text: '<b>Second</b> thought' });
      expect(replaced.voters).toBe(1);
      const after = await voted(poll._id, linus, { text: 'Rude words' });
      const answers = after.results && 'answers' in after.results ? after.results.answers : [];
      expect(answers.map((a) => a.text)).toEqual(['Rude words', '<b>Second</b> thought']);
      const rude = answers[0]?._id ?? '';
      const hide = call(t.url, 'PATCH', `/api/polls/${poll._id}/answers/${rude}`, {
        token: admin,
        body: { hidden: true },
      });
      const owner = pollSchema.parse(await (await hide).json());
      expect(owner.results).toMatchObject({ answers: [{ _id: rude, hidden: true }, {}] });
      const shown = (await asPublic(poll._id))?.results;
      expect(shown).toEqual({ answers: [{ _id: answers[1]?._id, text: '<b>Second</b> thought' }] });
      // Replacing a hidden answer does not bring it back.
      await voted(poll._id, linus, { text: 'Still rude' });
      expect((await asPublic(poll._id))?.results).toEqual(shown);
      const unknown = await call(t.url, 'PATCH', `/api/polls/${poll._id}/answers/${newId()}`, {
        token: admin,
        body: { hidden: true },
      });
      expect(unknown.status).toBe(404);
    });

    it('ranking: every option once, Borda points', async () => {
      const poll = await open({ title: 'Rank', type: 'ranking', options: choices });
      for (const ranking of [
        ['1', '2'],
        ['1', '1', '2'],
        ['1', '2', '9'],
      ]) {
        expect((await vote(poll._id, grace, { ranking })).status).toBe(400);
      }
      await voted(poll._id, grace, { ranking: ['3', '1', '2'] });
      await voted(poll._id, linus, { ranking: ['1', '3', '2'] });
      // A replaced ranking takes its points back.
      await voted(poll._id, linus, { ranking: ['3', '2', '1'] });
      expect((await asAdmin(poll._id))?.results).toEqual({
        options: [
          { id: '1', points: 1 },
          { id: '2', points: 1 },
          { id: '3', points: 4 },
        ],
      });
    });

    it('quiz: the answer stays secret until it closes; faster right answers score more', async () => {
      const watcher = await watch();
      const updates = collect(watcher, 'pollUpdated');
      const poll = await open(
        {
          title: 'Which are compiled?',
          type: 'quiz',
          options: [
            { id: 'rs', text: 'Rust' },
            { id: 'py', text: 'Python' },
            { id: 'go', text: 'Go' },
          ],
          correctOptionIds: ['rs', 'go'],
        },
        { resultsVisible: true },
      );
      expect(poll.correctOptionIds).toEqual(['rs', 'go']);
      const [fast, slow, partial] = await attendees(3, 'quiz');
      await voted(poll._id, fast ?? '', { optionIds: ['go', 'rs'] });
      clock.advance(30_000);
      await voted(poll._id, slow ?? '', { optionIds: ['rs', 'go'] });
      const answered = await voted(poll._id, partial ?? '', { optionIds: ['rs'] });
      const secret = (p: unknown) => JSON.stringify(p).includes('correctOptionIds');
      expect(secret(answered)).toBe(false);
      expect(secret(await asPublic(poll._id))).toBe(false);
      const early = await call(t.url, 'GET', `/api/polls/${poll._id}/leaderboard`, {
        token: grace,
      });
      expect(early.status).toBe(401);
      expect((await call(t.url, 'GET', `/api/polls/${poll._id}/leaderboard`)).status).toBe(409);
      const owners = leaderboardSchema.parse(
        await (
          await call(t.url, 'GET', `/api/polls/${poll._id}/leaderboard`, { token: admin })
        ).json(),
      );
      expect(owners.entries).toEqual([
        { username: 'quiz0', points: 1000 },
        { username: 'quiz1', points: 500 },
      ]);
      await expect
        .poll(() => updates.filter((u) => u.poll._id === poll._id).length)
        .toBeGreaterThan(0);
      expect(updates.filter((u) => u.poll._id === poll._id).some(secret)).toBe(false);

      expect((await patch(poll._id, { state: 'closed' })).status).toBe(200);
      const closed = await asPublic(poll._id);
      expect(closed?.results).toEqual({
        options: [
          { id: 'rs', count: 3 },
          { id: 'py', count: 0 },
          { id: 'go', count: 2 },
        ],
        correctOptionIds: ['rs', 'go'],
      });
      const board = leaderboardSchema.parse(
        await (await call(t.url, 'GET', `/api/polls/${poll._id}/leaderboard`)).json(),
      );
      expect(board.entries.map((e) => e.username)).toEqual(['quiz0', 'quiz1']);
      await expect
        .poll(() => updates.filter((u) => u.poll._id === poll._id).at(-1)?.poll.state)
        .toBe('closed');
      const last = pollUpdatedEventSchema.parse(updates.at(-1));
      expect(last.poll.results).toMatchObject({ correctOptionIds: ['rs', 'go'] });
      const single = await create({ title: 'x', type: 'single', options: choices });
      expect(
        (await call(t.url, 'GET', `/api/polls/${single._id}/leaderboard`, { token: admin })).status,
      ).toBe(404);
    });
  });

  describe('results and live updates', () => {
    it('hides results from the public until revealed, and sends them when they are', async () => {
      const watcher = await watch();
      const updates = collect(watcher, 'pollUpdated');
      const poll = await open({ title: 'Hidden', type: 'single', options: choices });
      const answered = await voted(poll._id, grace, { optionIds: ['1'] });
      expect(answered.results).toBeNull();
      expect((await asPublic(poll._id))?.results).toBeNull();
      await expect
        .poll(() => updates.filter((u) => u.poll._id === poll._id).at(-1)?.poll.voters)
        .toBe(1);
      expect(
        updates.filter((u) => u.poll._id === poll._id).every((u) => u.poll.results === null),
      ).toBe(true);
      expect((await patch(poll._id, { resultsVisible: true })).status).toBe(200);
      const results = {
        options: [
          { id: '1', count: 1 },
          { id: '2', count: 0 },
          { id: '3', count: 0 },
        ],
      };
      expect((await asPublic(poll._id))?.results).toEqual(results);
      await expect
        .poll(() => updates.filter((u) => u.poll._id === poll._id).at(-1)?.poll.results)
        .toEqual(results);
    });

    it('sends drafts to the admin only, and a deletion live', async () => {
      const everyone = await watch();
      const moderator = await watch([{ room: 'moderation', token: admin }]);
      const publicUpdates = collect(everyone, 'pollUpdated');
      const ownerUpdates = collect(moderator, 'pollUpdated');
      const deletions = collect(everyone, 'pollDeleted');
      const poll = await create({ title: 'Secret draft', type: 'open' });
      await expect.poll(() => ownerUpdates.some((u) => u.poll._id === poll._id)).toBe(true);
      expect(publicUpdates.some((u) => u.poll._id === poll._id)).toBe(false);
      const removed = await call(t.url, 'DELETE', `/api/polls/${poll._id}`, { token: admin });
      expect(removed.status).toBe(200);
      await expect.poll(() => deletions.map((d) => d.id)).toContain(poll._id);
      expect(pollDeletedEventSchema.parse(deletions.at(-1))).toEqual({
        id: poll._id,
        sessionId: null,
      });
      expect(await asAdmin(poll._id)).toBeUndefined();
      expect((await vote(poll._id, grace, { text: 'x' })).status).toBe(404);
    });

    it('resets a poll: its votes gone, its state kept', async () => {
      const poll = await open({ title: 'Again', type: 'single', options: choices });
      await voted(poll._id, grace, { optionIds: ['1'] });
      const response = await call(t.url, 'POST', `/api/polls/${poll._id}/reset`, { token: admin });
      expect(response.status).toBe(200);
      const reset = pollSchema.parse(await response.json());
      expect(reset).toMatchObject({ state: 'open', voters: 0 });
      expect(reset.results).toEqual({
        options: [
          { id: '1', count: 0 },
          { id: '2', count: 0 },
          { id: '3', count: 0 },
        ],
      });
      // The attendee answers again as a new voter.
      expect((await voted(poll._id, grace, { optionIds: ['2'] })).voters).toBe(1);
    });

    it('counts each of 30 attendees racing 3 answers each once, with their last answer', async () => {
      const poll = await open({ title: 'Race', type: 'multiple', options: choices });
      const tokens = await attendees(30, 'racer');
      const answers = [['1'], ['2', '3'], ['3']];
      const statuses = await Promise.all(
        tokens.flatMap((token) =>
          answers.map(async (optionIds) => {
            const response = await vote(poll._id, token, { optionIds });
            await response.arrayBuffer();
            return response.status;
          }),
        ),
      );
      expect(statuses.every((status) => status === 200)).toBe(true);
      const stored = await asAdmin(poll._id);
      expect(stored?.voters).toBe(30);
      // Whichever answer came last for each attendee, the counts are the sum of the last ones.
      const rows = await t.app.deps.db
        .selectFrom('poll_responses')
        .select('answer')
        .where('poll_id', '=', poll._id)
        .execute();
      expect(rows).toHaveLength(30);
      const expected = new Map<string, number>([
        ['1', 0],
        ['2', 0],
        ['3', 0],
      ]);
      for (const row of rows) {
        for (const id of (JSON.parse(row.answer) as { optionIds: string[] }).optionIds) {
          expected.set(id, (expected.get(id) ?? 0) + 1);
        }
      }
      expect(stored?.results).toEqual({
        options: [...expected].map(([id, count]) => ({ id, count })),
      });
    }, 60_000);

    it('writes first answers that come together in one statement on PostgreSQL, each counted once', async () => {
      const poll = await open({ title: 'Together', type: 'multiple', options: choices });
      const before = await findPoll(t.app.deps.db, poll._id);
      const input = (attendeeId: string, optionIds: string[]) => ({
        pollId: poll._id,
        attendeeId,
        id: newId(),
        username: attendeeId,
        answer: JSON.stringify({ kind: 'options', optionIds }),
        answeredAt: clock.now().toISOString(),
        points: 0,
        hidden: false,
      });
      const moves = (optionIds: string[]) => () => new Map(optionIds.map((id) => [id, 1]));
      const ids = Array.from({ length: 40 }, () => newId());
      // All at once, and one attendee twice: their second answer replaces their first.
      const results = await Promise.all([
        ...ids.map((id, i) => {
          const optionIds = i % 2 === 0 ? ['1'] : ['2', '3'];
          return recordResponse(t.app.deps.db, input(id, optionIds), moves(optionIds));
        }),
        recordResponse(t.app.deps.db, input(ids[0] as string, ['3']), (earlier) =>
          earlier
            ? new Map([
                ['1', -1],
                ['3', 1],
              ])
            : new Map([['3', 1]]),
        ),
      ]);
      const recorded = results.filter((result) => typeof result === 'object');
      expect(recorded).toHaveLength(41);
      expect(recorded.filter((result) => result.replaced)).toHaveLength(1);
      const moved = async () => {
        const now = await findPoll(t.app.deps.db, poll._id);
        return (now?.revision ?? 0) - (before?.revision ?? 0);
      };
      expect((await findPoll(t.app.deps.db, poll._id))?.voters).toBe(40);
      const told = recorded.filter((result) => result.tells).length;
      if (database === 'postgres') {
        // The first alone, the 39 others that came meanwhile together, then the second answer.
        expect(await moved()).toBe(3);
        expect(told).toBe(3);
      } else {
        expect(await moved()).toBe(41);
        expect(told).toBe(41);
      }
      expect((await asAdmin(poll._id))?.results).toEqual({
        options: [
          { id: '1', count: 19 },
          { id: '2', count: 20 },
          { id: '3', count: 21 },
        ],
      });
      // A poll that closed meanwhile takes none.
      await patch(poll._id, { state: 'closed' });
      expect(await recordResponse(t.app.deps.db, input(newId(), ['1']), moves(['1']))).toBe(
        'closed',
      );
    });

    it('sends pollUpdated at most 4 times a second while 200 attendees answer', async () => {
      const poll = await open(
        { title: 'Crowd', type: 'single', options: choices },
        { resultsVisible: true },
      );
      const watcher = await watch();
      const updates = collect(watcher, 'pollUpdated');
      const tokens = await attendees(200, 'crowd');
      const started = Date.now();
      await Promise.all(
        tokens.map(async (token, i) => {
          await new Promise((resolve) => setTimeout(resolve, (i * 1000) / tokens.length));
          const response = await vote(poll._id, token, { optionIds: [String((i % 3) + 1)] });
          await response.arrayBuffer();
        }),
      );
      await expect
        .poll(() => updates.filter((u) => u.poll._id === poll._id).at(-1)?.poll.voters)
        .toBe(200);
      const seconds = (Date.now() - started) / 1000;
      const mine = updates.filter((u) => u.poll._id === poll._id);
      expect(mine.length).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 2);
      expect(mine.at(-1)?.poll.results).toEqual({
        options: [
          { id: '1', count: 67 },
          { id: '2', count: 67 },
          { id: '3', count: 66 },
        ],
      });
    }, 60_000);

    it('lets a screen that reconnects catch up with a GET', async () => {
      const poll = await open({ title: 'Reconnect', type: 'rating' }, { resultsVisible: true });
      const watcher = await watch();
      watcher.disconnect();
      await voted(poll._id, grace, { rating: 5 });
      await voted(poll._id, linus, { rating: 3 });
      watcher.connect();
      await expect.poll(() => watcher.connected).toBe(true);
      expect((await asPublic(poll._id))?.results).toEqual({ average: 4, counts: [0, 0, 1, 0, 1] });
    });
  });

  describe('a session’s polls', () => {
    /** A speaker who signed up, with their token. */
    const signUp = async (name: string) => {
      const { speaker, secret } = await addSpeakerWithSecret(t.url, name);
      return { id: speaker._id, token: await speakerToken(t.url, speaker.username, secret) };
    };
    let ada: { id: string; token: string };
    let alan: { id: string; token: string };
    let sessionId: string;

    beforeAll(async () => {
      ada = await signUp('Ada Lovelace');
      alan = await signUp('Alan Turing');
      const room = await call(t.url, 'POST', '/api/admin/rooms', {
        token: admin,
        body: { name: 'Main hall' },
      });
      const roomId = ((await room.json()) as { _id: string })._id;
      const session = await call(t.url, 'POST', '/api/admin/sessions', {
        token: admin,
        body: {
          title: 'Engines',
          roomId,
          startsAt: '2026-11-27T10:00:00+01:00',
          endsAt: '2026-11-27T11:00:00+01:00',
          speakerIds: [ada.id],
        },
      });
      expect(session.status).toBe(201);
      sessionId = ((await session.json()) as { _id: string })._id;
    });

    it('are run by the session’s speakers and the admin, not by another speaker', async () => {
      const body = { sessionId, title: 'Ready?', type: 'single', options: choices };
      const refused = await call(t.url, 'POST', '/api/polls', { token: alan.token, body });
      expect(refused.status).toBe(403);
      expect(await errorOf(refused)).toBe(
        'Only the session’s speakers and the admin run its polls',
      );
      const unknown = { ...body, sessionId: newId() };
      expect(
        (await call(t.url, 'POST', '/api/polls', { token: ada.token, body: unknown })).status,
      ).toBe(404);
      const mine = await create(body, ada.token);
      expect(mine.sessionId).toBe(sessionId);
      // Another speaker cannot open, reset, delete or see its drafts.
      expect((await patch(mine._id, { state: 'open' }, alan.token)).status).toBe(403);
      const reset = await call(t.url, 'POST', `/api/polls/${mine._id}/reset`, {
        token: alan.token,
      });
      expect(reset.status).toBe(403);
      const removed = await call(t.url, 'DELETE', `/api/polls/${mine._id}`, { token: alan.token });
      expect(removed.status).toBe(403);
      const list = async (token?: string) =>
        pollListSchema.parse(
          await (await call(t.url, 'GET', `/api/polls?sessionId=${sessionId}`, { token })).json(),
        );
      expect((await list(alan.token)).map((p) => p._id)).not.toContain(mine._id);
      expect((await list()).map((p) => p._id)).not.toContain(mine._id);
      expect((await list(ada.token)).map((p) => p._id)).toContain(mine._id);
      expect((await list(admin)).map((p) => p._id)).toContain(mine._id);
      // The admin runs it too; the speaker sees hidden results, the public does not.
      expect((await patch(mine._id, { state: 'open' })).status).toBe(200);
      await voted(mine._id, grace, { optionIds: ['3'] });
      expect((await list(ada.token)).find((p) => p._id === mine._id)?.results).toMatchObject({
        options: [{ count: 0 }, { count: 0 }, { count: 1 }],
      });
      expect((await list()).find((p) => p._id === mine._id)?.results).toBeNull();
      expect((await patch(mine._id, { state: 'closed' }, ada.token)).status).toBe(200);
    });

    it('reach the session’s watchers in the public view and its speaker in the owners’', async () => {
      const inSession = await watch([{ room: 'session', sessionId }]);
      const elsewhere = await watch([{ room: 'session', sessionId: newId() }]);
      const speaker = await watch([{ room: 'moderation', token: ada.token }]);
      const publicUpdates = collect(inSession, 'pollUpdated');
      const strayUpdates = collect(elsewhere, 'pollUpdated');
      const ownerUpdates = collect(speaker, 'pollUpdated');
      const deletions = collect(inSession, 'pollDeleted');
      const poll = await create(
        { sessionId, title: 'Quiz time', type: 'quiz', options: choices, correctOptionIds: ['1'] },
        ada.token,
      );
      await expect.poll(() => ownerUpdates.some((u) => u.poll._id === poll._id)).toBe(true);
      expect(publicUpdates.some((u) => u.poll._id === poll._id)).toBe(false);
      expect(
        (await patch(poll._id, { state: 'open', resultsVisible: true }, ada.token)).status,
      ).toBe(200);
      await voted(poll._id, grace, { optionIds: ['1'] });
      await expect
        .poll(() => publicUpdates.filter((u) => u.poll._id === poll._id).at(-1)?.poll.voters)
        .toBe(1);
      await expect
        .poll(() => ownerUpdates.filter((u) => u.poll._id === poll._id).at(-1)?.poll.voters)
        .toBe(1);
      expect(JSON.stringify(publicUpdates)).not.toContain('correctOptionIds');
      expect(
        ownerUpdates.filter((u) => u.poll._id === poll._id).at(-1)?.poll.correctOptionIds,
      ).toEqual(['1']);
      expect(strayUpdates.filter((u) => u.poll._id === poll._id)).toEqual([]);
      expect(
        (await call(t.url, 'DELETE', `/api/polls/${poll._id}`, { token: ada.token })).status,
      ).toBe(200);
      await expect.poll(() => deletions).toEqual([{ id: poll._id, sessionId }]);
    });
  });

  describe('answering', () => {
    it('needs an attendee token (401), an open poll (409), a poll (404)', async () => {
      const poll = await open({ title: 'Tokens', type: 'single', options: choices });
      for (const token of [undefined, admin, forged(grace), 'nonsense']) {
        expect((await vote(poll._id, token, { optionIds: ['1'] })).status).toBe(401);
      }
      expect((await vote(newId(), grace, { optionIds: ['1'] })).status).toBe(404);
      expect((await vote('x', grace, { optionIds: ['1'] })).status).toBe(400);
      const big = await call(t.url, 'PUT', `/api/polls/${poll._id}/vote`, {
        token: grace,
        raw: JSON.stringify({ text: 'x'.repeat(5000) }),
      });
      expect(big.status).toBe(413);
    });
  });

  describe('the admin’s exports and figures', () => {
    it('lists every poll in a formula-safe CSV, and voters in the overview', async () => {
      const poll = await open({
        title: '=HYPERLINK("http://evil")',
        type: 'single',
        options: [{ text: '+1' }, { text: '@SUM(A1)' }],
      });
      await voted(poll._id, grace, { optionIds: ['1'] });
      expect((await call(t.url, 'GET', '/api/admin/polls.csv')).status).toBe(401);
      expect((await call(t.url, 'GET', '/api/admin/polls.csv', { token: grace })).status).toBe(401);
      const response = await call(t.url, 'GET', '/api/admin/polls.csv', { token: admin });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/csv/);
      const csv = await response.text();
      expect(
        csv.startsWith('id,createdAt,sessionId,title,type,state,resultsVisible,voters,results'),
      ).toBe(true);
      const line = csv.split('\r\n').find((row) => row.startsWith(poll._id)) ?? '';
      expect(line).toContain(`"'=HYPERLINK(""http://evil"")"`);
      expect(line).toContain(`'+1: 1 | @SUM(A1): 0`);

      const stats = adminStatsSchema.parse(
        await (await call(t.url, 'GET', '/api/admin/stats', { token: admin })).json(),
      );
      expect(stats.polls.perPoll.find((p) => p.pollId === poll._id)?.voters).toBe(1);
      const event = stats.polls.perSession.find((s) => s.sessionId === null);
      expect(event?.voters).toBeGreaterThanOrEqual(2);
    });
  });
});

describe('polls under a tight write limit', () => {
  const t = useTestApp({ env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '5' } });

  it('answers 429 with Retry-After past the per-attendee limit', async () => {
    const admin = await adminToken(t.url, PASSWORD);
    const created = await call(t.url, 'POST', '/api/polls', {
      token: admin,
      body: { title: 'Limited', type: 'rating' },
    });
    const poll = pollSchema.parse(await created.json());
    await call(t.url, 'PATCH', `/api/polls/${poll._id}`, { token: admin, body: { state: 'open' } });
    const token = await t.app.deps.callers.signAttendee({ id: newId(), username: 'eager' });
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 8; i += 1) {
      const response = await call(t.url, 'PUT', `/api/polls/${poll._id}/vote`, {
        token,
        body: { rating: 1 + (i % 5) },
      });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else await response.arrayBuffer();
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
