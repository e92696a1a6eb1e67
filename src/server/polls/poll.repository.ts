import { PostgresAdapter, sql } from 'kysely';
import type { PollOption, PollState, PollType } from '../../shared/schemas/poll.ts';
import type { Db, PollsTable } from '../db/database.ts';
import { type Executor, findById, oldestFirst, rowsWritten } from '../db/queries.ts';
import { batchesByKey } from '../lib/batches.ts';
import { onePer } from '../lib/one-per.ts';
import {
  findSession,
  sessionSpeakerIds as speakersOfSession,
} from '../programme/programme.repository.ts';

/** A poll as stored: what every view of it is made from (results are read beside it). */
export interface StoredPoll {
  _id: string;
  sessionId: string | null;
  title: string;
  type: PollType;
  options: PollOption[];
  maxRating: number;
  state: PollState;
  resultsVisible: boolean;
  voters: number;
  createdAt: string;
  correctOptionIds: string[] | null;
  openedAt: string | null;
  /** Moved by every change and answer: orders a poll's states. */
  revision: number;
}

const parseList = (json: string | null): string[] | null =>
  json === null ? null : (JSON.parse(json) as string[]);

const toStored = (row: PollsTable): StoredPoll => ({
  _id: row.id,
  sessionId: row.session_id,
  title: row.title,
  type: row.type as PollType,
  options: JSON.parse(row.options) as PollOption[],
  maxRating: row.max_rating,
  state: row.state as PollState,
  resultsVisible: row.results_visible === 1,
  voters: row.voters,
  createdAt: row.created_at,
  correctOptionIds: parseList(row.correct_option_ids),
  openedAt: row.opened_at,
  revision: row.revision,
});

export async function insertPoll(
  db: Executor,
  poll: Omit<StoredPoll, 'voters' | 'revision' | 'openedAt' | 'state'>,
): Promise<StoredPoll> {
  const row: PollsTable = {
    id: poll._id,
    session_id: poll.sessionId,
    title: poll.title,
    type: poll.type,
    options: JSON.stringify(poll.options),
    state: 'draft',
    created_at: poll.createdAt,
    max_rating: poll.maxRating,
    results_visible: poll.resultsVisible ? 1 : 0,
    voters: 0,
    revision: 0,
    correct_option_ids: poll.correctOptionIds ? JSON.stringify(poll.correctOptionIds) : null,
    opened_at: null,
  };
  await db.insertInto('polls').values(row).execute();
  return toStored(row);
}

export function findPoll(db: Executor, id: string): Promise<StoredPoll | undefined> {
  return findById(db, 'polls', id, toStored);
}

/**
 * Reads of one poll asked while one is under way are made together, once, after it (decision
 * 250): a thousand answers a second to a poll read it a few dozen times, and none reads a state
 * older than when it asked.
 */
const sharedPollReads = onePer((db: Db) =>
  batchesByKey<null, StoredPoll | undefined>({
    max: Number.POSITIVE_INFINITY,
    run: async (id, readers) => {
      const poll = await findPoll(db, id);
      return readers.map(() => poll);
    },
  }),
);

/** A poll as `findPoll` reads it, read once for the readers that asked together. */
export function findPollShared(db: Db, id: string): Promise<StoredPoll | undefined> {
  return sharedPollReads(db)(id, null);
}

/** One session's polls (null: the event-wide ones), oldest first; drafts only when asked. */
export async function listPolls(
  db: Executor,
  sessionId: string | null,
  withDrafts: boolean,
): Promise<StoredPoll[]> {
  let q = db.selectFrom('polls').selectAll().orderBy('id');
  q =
    sessionId === null ? q.where('session_id', 'is', null) : q.where('session_id', '=', sessionId);
  if (!withDrafts) q = q.where('state', '<>', 'draft');
  return (await q.execute()).map(toStored);
}

/** The version of one session's polls (null: the event's): newest id, count, revisions. */
export async function pollsVersion(
  db: Executor,
  sessionId: string | null,
): Promise<{ newestId: string | null; count: number; revision: number }> {
  let q = db.selectFrom('polls');
  q =
    sessionId === null ? q.where('session_id', 'is', null) : q.where('session_id', '=', sessionId);
  const row = await q
    .select((eb) => [
      eb.fn.max<string | null>('id').as('newest'),
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>('revision').as('revision'),
    ])
    .executeTakeFirstOrThrow();
  return { newestId: row.newest, count: Number(row.count), revision: Number(row.revision ?? 0) };
}

/** A poll's counters, `limit` largest first when given; removed words only when asked. */
export async function pollCounts(
  db: Executor,
  pollId: string,
  options: { withHidden?: boolean; limit?: number } = {},
): Promise<{ key: string; count: number; hidden: boolean }[]> {
  let q = db
    .selectFrom('poll_counts')
    .select(['key', 'count', 'hidden'])
    .where('poll_id', '=', pollId)
    .where('count', '>', 0);
  if (!options.withHidden) q = q.where('hidden', '=', 0);
  if (options.limit !== undefined) {
    q = q.orderBy('count', 'desc').orderBy('key').limit(options.limit);
  }
  const rows = await q.execute();
  return rows.map((row) => ({ key: row.key, count: row.count, hidden: row.hidden === 1 }));
}

/** A poll's open answers, newest first: the shown ones, or every one for its owner. */
export async function openAnswers(
  db: Executor,
  pollId: string,
  withHidden: boolean,
  limit: number,
): Promise<{ _id: string; text: string; hidden: boolean }[]> {
  let q = db
    .selectFrom('poll_responses')
    .select(['id', 'answer', 'hidden'])
    .where('poll_id', '=', pollId)
    .orderBy('id', 'desc')
    .limit(limit);
  if (!withHidden) q = q.where('hidden', '=', 0);
  const rows = await q.execute();
  return rows.map((row) => ({
    _id: row.id,
    text: (JSON.parse(row.answer) as { text: string }).text,
    hidden: row.hidden === 1,
  }));
}

/** The changes a poll's owner may make at once; `openedAt` set when it first opens. */
export interface PollChanges {
  state?: PollState | undefined;
  resultsVisible?: boolean | undefined;
  title?: string | undefined;
  options?: PollOption[] | undefined;
  maxRating?: number | undefined;
  correctOptionIds?: string[] | undefined;
  openedAt?: string | undefined;
}

/**
 * Changes a poll (`onlyIn`: only while it is in one of these states, else nothing changes) and
 * moves its revision. Answers the poll as it is after, or undefined when nothing matched.
 */
export async function patchPoll(
  db: Executor,
  id: string,
  changes: PollChanges,
  onlyIn?: readonly PollState[],
): Promise<StoredPoll | undefined> {
  let q = db
    .updateTable('polls')
    .set((eb) => ({
      ...(changes.state === undefined ? {} : { state: changes.state }),
      ...(changes.resultsVisible === undefined
        ? {}
        : { results_visible: changes.resultsVisible ? 1 : 0 }),
      ...(changes.title === undefined ? {} : { title: changes.title }),
      ...(changes.options === undefined ? {} : { options: JSON.stringify(changes.options) }),
      ...(changes.maxRating === undefined ? {} : { max_rating: changes.maxRating }),
      ...(changes.correctOptionIds === undefined
        ? {}
        : { correct_option_ids: JSON.stringify(changes.correctOptionIds) }),
      ...(changes.openedAt === undefined
        ? {}
        : { opened_at: sql<string>`coalesce(opened_at, ${changes.openedAt})` }),
      revision: eb('revision', '+', 1),
    }))
    .where('id', '=', id);
  if (onlyIn) q = q.where('state', 'in', [...onlyIn]);
  const row = await q.returningAll().executeTakeFirst();
  return row && toStored(row);
}

/**
 * Starts a poll over: every response and counter gone, no voters, and a quiz's clock from now
 * when it is open. One transaction, the poll's row first (as every answer takes it).
 */
export async function resetPoll(db: Db, id: string, now: string): Promise<StoredPoll | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('polls')
      .set((eb) => ({
        voters: 0,
        revision: eb('revision', '+', 1),
        opened_at: sql<string | null>`case when state = 'open' then ${now} else null end`,
      }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) return undefined;
    await clearAnswers(trx, id);
    return toStored(row);
  });
}

/**
 * The answers of one poll (`pollId`), or of every poll, gone: their responses deleted and their
 * counters at nothing; removed words stay removed. The caller moved the polls' rows first (their
 * voters to 0), in the same transaction. Answers how many responses went.
 */
async function clearAnswers(trx: Executor, pollId?: string): Promise<number> {
  const responses = await rowsWritten(
    trx
      .deleteFrom('poll_responses')
      .$if(pollId !== undefined, (q) => q.where('poll_id', '=', pollId ?? '')),
  );
  await trx
    .deleteFrom('poll_counts')
    .where('hidden', '=', 0)
    .$if(pollId !== undefined, (q) => q.where('poll_id', '=', pollId ?? ''))
    .execute();
  await trx
    .updateTable('poll_counts')
    .set({ count: 0 })
    .$if(pollId !== undefined, (q) => q.where('poll_id', '=', pollId ?? ''))
    .execute();
  return responses;
}

/**
 * Every poll's answers gone (a purge, decision 218), as a reset takes one poll's: the polls stay,
 * with their questions and options, no voters and no counts; removed words stay removed. Answers
 * how many responses went.
 */
export async function deleteAllPollAnswers(db: Executor): Promise<number> {
  await db
    .updateTable('polls')
    .set((eb) => ({ voters: 0, revision: eb('revision', '+', 1) }))
    .where('voters', '>', 0)
    .execute();
  return clearAnswers(db);
}

/** Deletes a poll with its responses and counters; answers what it was. */
export async function deletePoll(db: Db, id: string): Promise<StoredPoll | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await findById(trx, 'polls', id);
    if (!row) return undefined;
    await trx.deleteFrom('poll_responses').where('poll_id', '=', id).execute();
    await trx.deleteFrom('poll_counts').where('poll_id', '=', id).execute();
    await trx.deleteFrom('polls').where('id', '=', id).execute();
    return toStored(row);
  });
}

/** One attendee's response, as the vote stores it. */
export interface ResponseInput {
  pollId: string;
  attendeeId: string;
  /** The id a new response is listed under (an open answer). */
  id: string;
  username: string;
  /** JSON of the answer. */
  answer: string;
  answeredAt: string;
  points: number;
  hidden: boolean;
}

/** What recording a response answers: the poll after it, and how. */
export interface Recorded {
  poll: StoredPoll;
  /** The attendee's earlier response was replaced. */
  replaced: boolean;
  /**
   * Whether this response is the one to tell the poll's watchers: false when another response
   * written by the same statement tells them of the same revision.
   */
  tells: boolean;
}

/**
 * Records one attendee's response to an open poll, in one transaction: the poll's row first
 * (which checks it is open and orders every answer to it), then the response, inserted, or in
 * place of the attendee's earlier one (same id); then the counters, each moved by
 * `changes(earlier answer)`, in key order (so two answers never wait on each other in a circle);
 * a new voter counts once. Answers the poll after; 'closed' when the poll is not open; undefined
 * when there is none. On PostgreSQL first answers are written together instead
 * (`recordFirstResponses`, decisions 248 and 250).
 */
export async function recordResponse(
  db: Db,
  input: ResponseInput,
  changes: (earlier: string | undefined) => Map<string, number>,
): Promise<Recorded | 'closed' | undefined> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const first = await firstResponsesOf(db)(input.pollId, { input, moves: changes(undefined) });
    if (first) return first;
  }
  return db.transaction().execute(async (trx) => {
    const locked = await trx
      .updateTable('polls')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('id', '=', input.pollId)
      .where('state', '=', 'open')
      .returningAll()
      .executeTakeFirst();
    if (!locked) {
      return (await findById(trx, 'polls', input.pollId)) ? 'closed' : undefined;
    }
    const inserted = await rowsWritten(
      trx
        .insertInto('poll_responses')
        .values({
          poll_id: input.pollId,
          attendee_id: input.attendeeId,
          id: input.id,
          username: input.username,
          answer: input.answer,
          answered_at: input.answeredAt,
          points: input.points,
          hidden: input.hidden ? 1 : 0,
        })
        .onConflict((oc) => oc.columns(['poll_id', 'attendee_id']).doNothing()),
    );
    let earlier: string | undefined;
    if (inserted === 0) {
      const previous = await trx
        .selectFrom('poll_responses')
        .select('answer')
        .where('poll_id', '=', input.pollId)
        .where('attendee_id', '=', input.attendeeId)
        .executeTakeFirstOrThrow();
      earlier = previous.answer;
      await trx
        .updateTable('poll_responses')
        .set({
          username: input.username,
          answer: input.answer,
          answered_at: input.answeredAt,
          points: input.points,
          // An answer its owner hid stays hidden when it is replaced.
          hidden: sql<number>`case when hidden = 1 then 1 else ${input.hidden ? 1 : 0} end`,
        })
        .where('poll_id', '=', input.pollId)
        .where('attendee_id', '=', input.attendeeId)
        .execute();
    }
    await moveCounts(trx, input.pollId, changes(earlier));
    let row = locked;
    if (inserted > 0) {
      row = await trx
        .updateTable('polls')
        .set((eb) => ({ voters: eb('voters', '+', 1) }))
        .where('id', '=', input.pollId)
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    return { poll: toStored(row), replaced: inserted === 0, tells: true };
  });
}

/** A first response waiting to be written with others to the same poll. */
interface FirstResponse {
  input: ResponseInput;
  /** The counters it moves. */
  moves: Map<string, number>;
}

/** The most first responses one statement writes (7 parameters each, and their counters'). */
const FIRST_RESPONSES_PER_STATEMENT = 250;

/**
 * First responses to a poll on PostgreSQL, written together (decision 250): one statement per
 * poll at a time on an instance, taking every response that came while the one before was
 * written. One response alone is written at once; a thousand a second go in a few dozen
 * statements, each holding the poll's row once, instead of a thousand in turn.
 */
const firstResponsesOf = onePer((db: Db) =>
  batchesByKey<FirstResponse, Recorded | undefined>({
    max: FIRST_RESPONSES_PER_STATEMENT,
    // One attendee's two answers go in turn: the second replaces the first.
    distinct: ({ input }) => input.attendeeId,
    run: (pollId, responses) => recordFirstResponses(db, pollId, responses),
  }),
);

/**
 * Attendees' first responses to one open poll on PostgreSQL, in one statement (decisions 248
 * and 250): the poll's row locked, the responses inserted, the counters moved in key order by
 * those inserted, the poll's revision moved once and its voters by as many. Every change to a
 * poll takes its row first, so the order of locks is the one every other change keeps. Written
 * in autocommit, the row is held for the statement and its commit. Answers, per response, the
 * poll after, or undefined when it was not written: the poll is not open or not there, or the
 * attendee answered it before; the transaction of `recordResponse` tells which, and replaces
 * an answer.
 */
async function recordFirstResponses(
  db: Db,
  pollId: string,
  responses: FirstResponse[],
): Promise<(Recorded | undefined)[]> {
  const answers = sql.join(
    responses.map(
      ({ input }) =>
        sql`(${input.attendeeId}::text, ${input.id}::text, ${input.username}::text,
          ${input.answer}::text, ${input.answeredAt}::text, ${input.points}::integer,
          ${input.hidden ? 1 : 0}::integer)`,
    ),
  );
  const moves = responses.flatMap(({ input, moves }) =>
    [...moves].map(
      ([key, amount]) => sql`(${input.attendeeId}::text, ${key}::text, ${amount}::integer)`,
    ),
  );
  const counted =
    moves.length === 0
      ? sql``
      : sql`, moves (attendee_id, key, amount) as (
          values ${sql.join(moves)}
        ), counted as (
          insert into poll_counts (poll_id, key, count, hidden)
          select ${pollId}, moves.key, sum(moves.amount)::integer, 0
          from moves join inserted on inserted.attendee_id = moves.attendee_id
          group by moves.key
          order by moves.key
          on conflict (poll_id, key) do update set count = poll_counts.count + excluded.count
          returning 1
        )`;
  const { rows } = await sql<
    (PollsTable | Record<keyof PollsTable, null>) & { recorded: string[] }
  >`
    with open_poll as (
      select id from polls where id = ${pollId} and state = 'open' for update
    ), answers (attendee_id, id, username, answer, answered_at, points, hidden) as (
      values ${answers}
    ), inserted as (
      insert into poll_responses
        (poll_id, attendee_id, id, username, answer, answered_at, points, hidden)
      select open_poll.id, answers.attendee_id, answers.id, answers.username, answers.answer,
        answers.answered_at, answers.points, answers.hidden
      from open_poll cross join answers
      on conflict (poll_id, attendee_id) do nothing
      returning attendee_id
    )${counted}, moved as (
      update polls set revision = revision + 1,
        voters = voters + (select count(*) from inserted)::integer
      where id in (select id from open_poll) and exists (select 1 from inserted)
      returning polls.*
    )
    select moved.*, array(select attendee_id from inserted) as recorded
    from (select 1) as one left join moved on true`.execute(db);
  const [row] = rows;
  if (!row || row.id === null) return responses.map(() => undefined);
  const poll = toStored(row);
  const recorded = new Set(row.recorded);
  let told = false;
  return responses.map(({ input }) => {
    if (!recorded.has(input.attendeeId)) return undefined;
    const tells = !told;
    told = true;
    return { poll, replaced: false, tells };
  });
}

/**
 * Moves a poll's counters by `changes`, in key order (so two answers never wait on each other in
 * a circle), inside the transaction that holds the poll's row.
 */
async function moveCounts(
  trx: Executor,
  pollId: string,
  changes: Map<string, number>,
): Promise<void> {
  const moves = [...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, amount] of moves) {
    await trx
      .insertInto('poll_counts')
      .values({ poll_id: pollId, key, count: amount, hidden: 0 })
      .onConflict((oc) =>
        oc
          .columns(['poll_id', 'key'])
          .doUpdateSet((eb) => ({ count: eb('poll_counts.count', '+', amount) })),
      )
      .execute();
  }
}

/**
 * Takes one attendee's response to a poll back (their erasure, decision 214), whatever the
 * poll's state, as a replaced answer is taken back: in one transaction, the poll's row first (as
 * every answer takes it), then the response deleted, then each counter moved by
 * `changes(its answer)`, in key order, and one voter fewer. Answers the poll after, or undefined
 * when there was no such response (taken back already).
 */
export async function removeResponse(
  db: Db,
  pollId: string,
  attendeeId: string,
  changes: (answer: string) => Map<string, number>,
): Promise<StoredPoll | undefined> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx
      .updateTable('polls')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('id', '=', pollId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('poll_responses')
            .select('poll_responses.poll_id')
            .where('poll_responses.poll_id', '=', pollId)
            .where('poll_responses.attendee_id', '=', attendeeId),
        ),
      )
      .returning('id')
      .executeTakeFirst();
    if (!locked) return undefined;
    const removed = await trx
      .deleteFrom('poll_responses')
      .where('poll_id', '=', pollId)
      .where('attendee_id', '=', attendeeId)
      .returning('answer')
      .executeTakeFirst();
    // Taken back meanwhile by another run: the row's lock waited for it. Nothing moves but the
    // revision.
    if (!removed) return undefined;
    await moveCounts(trx, pollId, changes(removed.answer));
    const row = await trx
      .updateTable('polls')
      .set((eb) => ({ voters: eb('voters', '-', 1) }))
      .where('id', '=', pollId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toStored(row);
  });
}

/** The polls attendee `attendeeId` answered, `limit` of them after the poll `after`, by id. */
export async function pollsAnsweredBy(
  db: Executor,
  attendeeId: string,
  page: { limit: number; after?: string | undefined },
): Promise<string[]> {
  let q = db
    .selectFrom('poll_responses')
    .select('poll_id')
    .where('attendee_id', '=', attendeeId)
    .orderBy('poll_id')
    .limit(page.limit);
  if (page.after !== undefined) q = q.where('poll_id', '>', page.after);
  return (await q.execute()).map((row) => row.poll_id);
}

/** One response of an attendee with the poll it answers, for their export. */
export interface ResponseOf {
  poll: StoredPoll;
  /** JSON of the answer. */
  answer: string;
  answeredAt: string;
  points: number;
}

/** Attendee `attendeeId`'s responses, `limit` after the poll `after`, by poll id. */
export async function responsesOf(
  db: Executor,
  attendeeId: string,
  page: { limit: number; after?: string | undefined },
): Promise<ResponseOf[]> {
  let q = db
    .selectFrom('poll_responses')
    .innerJoin('polls', 'polls.id', 'poll_responses.poll_id')
    .selectAll('polls')
    .select([
      'poll_responses.answer as answer',
      'poll_responses.answered_at as answered_at',
      'poll_responses.points as points',
    ])
    .where('poll_responses.attendee_id', '=', attendeeId)
    .orderBy('poll_responses.poll_id')
    .limit(page.limit);
  if (page.after !== undefined) q = q.where('poll_responses.poll_id', '>', page.after);
  const rows = await q.execute();
  return rows.map(({ answer, answered_at, points, ...poll }) => ({
    poll: toStored(poll),
    answer,
    answeredAt: answered_at,
    points,
  }));
}

/** Hides or shows an open answer (and moves the poll's revision); false when there is none. */
export async function setAnswerHidden(
  db: Db,
  pollId: string,
  answerId: string,
  hidden: boolean,
): Promise<StoredPoll | undefined> {
  return db.transaction().execute(async (trx) => {
    const changed = await rowsWritten(
      trx
        .updateTable('poll_responses')
        .set({ hidden: hidden ? 1 : 0 })
        .where('poll_id', '=', pollId)
        .where('id', '=', answerId),
    );
    if (changed === 0) return undefined;
    return patchPoll(trx, pollId, {});
  });
}

/** Removes a word from a word cloud, now and for every later answer; answers the poll after. */
export async function hideCount(db: Db, pollId: string, key: string): Promise<StoredPoll> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('poll_counts')
      .values({ poll_id: pollId, key, count: 0, hidden: 1 })
      .onConflict((oc) => oc.columns(['poll_id', 'key']).doUpdateSet({ hidden: 1 }))
      .execute();
    const poll = await patchPoll(trx, pollId, {});
    if (!poll) throw new Error(`No poll ${pollId}`);
    return poll;
  });
}

/** A quiz's best answers: most points first, the earliest first among equals. */
export async function leaderboard(
  db: Executor,
  pollId: string,
  limit: number,
): Promise<{ username: string; points: number }[]> {
  return db
    .selectFrom('poll_responses')
    .select(['username', 'points'])
    .where('poll_id', '=', pollId)
    .where('points', '>', 0)
    .orderBy('points', 'desc')
    .orderBy('answered_at')
    .limit(limit)
    .execute();
}

/** Every poll, oldest first, read a page at a time (the admin's CSV). */
export async function* allPolls(db: Executor, pageSize = 200): AsyncGenerator<StoredPoll> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('polls')
      .selectAll()
      .$call(oldestFirst({ after, limit: pageSize }))
      .execute();
    for (const row of rows) yield toStored(row);
    const last = rows.at(-1);
    if (!last || rows.length < pageSize) return;
    after = last.id;
  }
}

/** Participation: voters per poll, and distinct voters per session (null: event-wide polls). */
export async function pollParticipation(db: Executor): Promise<{
  perPoll: { id: string; sessionId: string | null; title: string; type: string; voters: number }[];
  perSession: { sessionId: string | null; polls: number; voters: number }[];
}> {
  const polls = await db
    .selectFrom('polls')
    .select(['id', 'session_id', 'title', 'type', 'voters'])
    .orderBy('id')
    .execute();
  const distinct = await db
    .selectFrom('poll_responses')
    .innerJoin('polls', 'polls.id', 'poll_responses.poll_id')
    .select((eb) => [
      'polls.session_id as session_id',
      eb.fn.count<number | string>('poll_responses.attendee_id').distinct().as('voters'),
    ])
    .groupBy('polls.session_id')
    .execute();
  const votersOf = new Map(distinct.map((row) => [row.session_id, Number(row.voters)]));
  const pollsOf = new Map<string | null, number>();
  for (const poll of polls) pollsOf.set(poll.session_id, (pollsOf.get(poll.session_id) ?? 0) + 1);
  return {
    perPoll: polls.map((row) => ({
      id: row.id,
      sessionId: row.session_id,
      title: row.title,
      type: row.type,
      voters: row.voters,
    })),
    perSession: [...pollsOf].map(([sessionId, count]) => ({
      sessionId,
      polls: count,
      voters: votersOf.get(sessionId) ?? 0,
    })),
  };
}

/** The speakers of a session (its polls' owners), or undefined when there is no such session. */
export async function sessionSpeakerIds(
  db: Executor,
  sessionId: string,
): Promise<string[] | undefined> {
  if (!(await findSession(db, sessionId))) return undefined;
  return speakersOfSession(db, sessionId);
}
