import { sql } from 'kysely';
import type {
  AdminQuestionsQuery,
  Question,
  QuestionStatus,
} from '../../shared/schemas/question.ts';
import type { Db, QuestionsTable } from '../db/database.ts';
import {
  type Executor,
  type PageAfter,
  findById,
  newestFirst,
  oldestFirst,
  rowsWritten,
  wroteAny,
} from '../db/queries.ts';

const toQuestion = (row: QuestionsTable): Question => ({
  _id: row.id,
  speakerId: row.speaker_id,
  speakerName: row.speaker_name,
  askerUsername: row.asker_username,
  question: row.question,
  createdAt: row.created_at,
  votes: row.votes,
  answered: row.answered === 1,
  pinned: row.pinned === 1,
  status: row.status as QuestionStatus,
  sessionId: row.session_id ?? null,
  anonymous: row.anonymous === 1,
  answer: row.answer ?? null,
  answeredAt: row.answered_at ?? null,
});

/** A question as stored, with the revision its lists' versions sum. */
export interface StoredQuestion {
  question: Question;
  revision: number;
}

const toStored = (row: QuestionsTable): StoredQuestion => ({
  question: toQuestion(row),
  revision: row.revision,
});

export async function insertQuestion(
  db: Executor,
  question: Question & { askerUsername: string },
  askerId: string | undefined,
): Promise<Question> {
  const row: QuestionsTable = {
    id: question._id,
    speaker_id: question.speakerId,
    speaker_name: question.speakerName,
    asker_username: question.askerUsername,
    question: question.question,
    created_at: question.createdAt,
    votes: question.votes,
    answered: question.answered ? 1 : 0,
    pinned: question.pinned ? 1 : 0,
    status: question.status,
    revision: 0,
    asker_id: askerId ?? null,
    session_id: question.sessionId,
    anonymous: question.anonymous ? 1 : 0,
    answer: null,
    answered_at: null,
  };
  await db.insertInto('questions').values(row).execute();
  return toQuestion(row);
}

/** Which questions a list holds: ids sort by creation time, so every bound is an id. */
export interface QuestionFilter {
  speakerId?: string | undefined;
  /** Asked in this session (of its panel or of one of its speakers). */
  sessionId?: string | undefined;
  /** A speaker's dashboard: asked of them, or in one of their sessions (decision 223). */
  dashboardOf?: string | undefined;
  askerUsername?: string | undefined;
  /** Only the questions asked under a name: an asker's public list leaves the anonymous out. */
  named?: boolean | undefined;
  /** Only ids greater than this one. */
  after?: string | undefined;
  /** Only ids smaller than this one. */
  before?: string | undefined;
  /** Only these statuses (public lists: published). All when absent. */
  statuses?: readonly QuestionStatus[] | undefined;
}

function filtered(db: Executor, filter: QuestionFilter) {
  let q = db.selectFrom('questions');
  if (filter.speakerId) q = q.where('speaker_id', '=', filter.speakerId);
  if (filter.sessionId) q = q.where('session_id', '=', filter.sessionId);
  const { dashboardOf } = filter;
  if (dashboardOf) {
    q = q.where((eb) =>
      eb.or([
        eb('speaker_id', '=', dashboardOf),
        eb(
          'session_id',
          'in',
          eb
            .selectFrom('session_speakers')
            .select('session_id')
            .where('speaker_id', '=', dashboardOf),
        ),
      ]),
    );
  }
  if (filter.askerUsername) q = q.where('asker_username', '=', filter.askerUsername);
  if (filter.named) q = q.where('anonymous', '=', 0);
  if (filter.after) q = q.where('id', '>', filter.after);
  if (filter.before) q = q.where('id', '<', filter.before);
  if (filter.statuses) q = q.where('status', 'in', [...filter.statuses]);
  return q;
}

/**
 * Oldest first. With `after`, the first `limit` newer questions (a poll catching up); without,
 * the latest `limit` (a screen opening, or paging back with `before`). With `top`, the `limit`
 * with the most votes, the oldest first among equals.
 */
export async function listQuestions(
  db: Executor,
  filter: QuestionFilter,
  limit: number,
  sort: 'recent' | 'top' = 'recent',
): Promise<Question[]> {
  const q = filtered(db, filter).selectAll().limit(limit);
  if (sort === 'top') {
    const rows = await q.orderBy('votes', 'desc').orderBy('id', 'asc').execute();
    return rows.map(toQuestion);
  }
  if (filter.after) {
    const rows = await q.orderBy('id', 'asc').execute();
    return rows.map(toQuestion);
  }
  const rows = await q.orderBy('id', 'desc').execute();
  return rows.reverse().map(toQuestion);
}

/**
 * What tells whether a scope changed (ETag): the newest id, the count, and the sum of the rows'
 * revisions, which every vote, flag and status change moves. Every status counts, so one
 * version covers the public and the moderation views of a scope.
 */
export async function questionsVersion(
  db: Executor,
  filter: QuestionFilter,
): Promise<{ newestId: string | null; count: number; revision: number }> {
  const row = await filtered(db, filter)
    .select((eb) => [
      eb.fn.max<string | null>('id').as('newest'),
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>('revision').as('revision'),
    ])
    .executeTakeFirstOrThrow();
  return { newestId: row.newest, count: Number(row.count), revision: Number(row.revision ?? 0) };
}

/** The speaker a question is asked of, by id: what the question stores of them. */
export function findAskedSpeaker(
  db: Executor,
  speakerId: string,
): Promise<{ _id: string; name: string } | undefined> {
  return findById(db, 'speakers', speakerId, (row) => ({ _id: row.id, name: row.name }));
}

export function findQuestion(db: Executor, id: string): Promise<StoredQuestion | undefined> {
  return findById(db, 'questions', id, toStored);
}

/**
 * The texts one asker sent one speaker (or one session's panel) since a time: to refuse the
 * same question twice.
 */
export async function recentTextsOf(
  db: Executor,
  to: { speakerId: string } | { panelOf: string },
  asker: { username: string; id: string | undefined },
  sinceId: string,
): Promise<string[]> {
  let q = db.selectFrom('questions').select('question');
  q =
    'speakerId' in to
      ? q.where('speaker_id', '=', to.speakerId)
      : q.where('session_id', '=', to.panelOf).where('speaker_id', 'is', null);
  const rows = await q
    .where('id', '>', sinceId)
    .where((eb) =>
      asker.id
        ? eb.or([eb('asker_username', '=', asker.username), eb('asker_id', '=', asker.id)])
        : eb('asker_username', '=', asker.username),
    )
    .execute();
  return rows.map((row) => row.question);
}

/**
 * One attendee's vote: stored once (the pair is the key), and the count moved in the same
 * transaction, so the count is the number of vote rows whatever runs at the same time.
 * Answers the question as it is after, and whether anything changed.
 */
export async function setVote(
  db: Db,
  questionId: string,
  attendeeId: string,
  on: boolean,
  createdAt: string,
): Promise<{ stored: StoredQuestion; changed: boolean } | undefined> {
  return db.transaction().execute(async (trx) => {
    const changed = await wroteAny(
      on
        ? trx
            .insertInto('question_votes')
            .values({ question_id: questionId, attendee_id: attendeeId, created_at: createdAt })
            .onConflict((oc) => oc.columns(['question_id', 'attendee_id']).doNothing())
        : trx
            .deleteFrom('question_votes')
            .where('question_id', '=', questionId)
            .where('attendee_id', '=', attendeeId),
    );
    const q = changed
      ? trx
          .updateTable('questions')
          .set((eb) => ({
            votes: eb('votes', on ? '+' : '-', 1),
            revision: eb('revision', '+', 1),
          }))
          .where('id', '=', questionId)
          .returningAll()
      : null;
    const row = q ? await q.executeTakeFirst() : await findById(trx, 'questions', questionId);
    return row ? { stored: toStored(row), changed } : undefined;
  });
}

/**
 * A speaker's (or the admin's) change of one question; pinning unpins the other pinned question
 * of its session (of its speaker, for a question asked in no session) in the same transaction
 * (decision 223). Answers the changed questions, this one first.
 */
export async function patchQuestion(
  db: Db,
  id: string,
  patch: {
    answered?: boolean | undefined;
    pinned?: boolean | undefined;
    status?: QuestionStatus | undefined;
    /** The written answer; null removes it. */
    answer?: string | null | undefined;
  },
  now: string,
): Promise<StoredQuestion[]> {
  return db.transaction().execute(async (trx) => {
    const current = await findById(trx, 'questions', id);
    if (!current) return [];
    const others: StoredQuestion[] = [];
    if (patch.pinned === true) {
      const { session_id: sessionId, speaker_id: speakerId } = current;
      const unpin = trx
        .updateTable('questions')
        .set((eb) => ({ pinned: 0, revision: eb('revision', '+', 1) }));
      const inScope = sessionId
        ? unpin.where('session_id', '=', sessionId)
        : unpin.where('speaker_id', '=', speakerId).where('session_id', 'is', null);
      const unpinned = await inScope
        .where('pinned', '=', 1)
        .where('id', '<>', id)
        .returningAll()
        .execute();
      others.push(...unpinned.map(toStored));
    }
    const row = await trx
      .updateTable('questions')
      .set((eb) => ({
        ...(patch.answered === undefined ? {} : { answered: patch.answered ? 1 : 0 }),
        ...(patch.pinned === undefined ? {} : { pinned: patch.pinned ? 1 : 0 }),
        ...(patch.status === undefined ? {} : { status: patch.status }),
        ...(patch.answer === undefined
          ? {}
          : { answer: patch.answer, answered_at: patch.answer === null ? null : now }),
        revision: eb('revision', '+', 1),
      }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return [toStored(row), ...others];
  });
}

/** Deletes every question and every vote (a purge); answers how many of each there were. */
export async function deleteAllQuestions(
  db: Executor,
): Promise<{ questions: number; votes: number }> {
  const votes = await rowsWritten(db.deleteFrom('question_votes'));
  const questions = await rowsWritten(db.deleteFrom('questions'));
  return { questions, votes };
}

/** Deletes a question and its votes; answers what it was, or undefined when there was none. */
export async function deleteQuestion(db: Db, id: string): Promise<Question | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await findById(trx, 'questions', id);
    if (!row) return undefined;
    await trx.deleteFrom('question_votes').where('question_id', '=', id).execute();
    await trx.deleteFrom('questions').where('id', '=', id).execute();
    return toQuestion(row);
  });
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The admin's list: every status, newest first, searched in the text, asker and speaker, and
 * filtered by status and by answered, open or pinned.
 */
export async function listForAdmin(db: Executor, query: AdminQuestionsQuery): Promise<Question[]> {
  let q = db
    .selectFrom('questions')
    .selectAll()
    .$call(newestFirst({ limit: query.limit, before: query.before?.toLowerCase() }));
  if (query.status) q = q.where('status', '=', query.status);
  if (query.flag === 'answered') q = q.where('answered', '=', 1);
  if (query.flag === 'open') q = q.where('answered', '=', 0);
  if (query.flag === 'pinned') q = q.where('pinned', '=', 1);
  if (query.search) {
    const pattern = likePattern(query.search);
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(question)`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql`lower(asker_username)`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql`lower(speaker_name)`, 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  const rows = await q.execute();
  return rows.map(toQuestion);
}

/** Every question (of one speaker), oldest first, read a page at a time for the CSV export. */
export async function* allQuestions(
  db: Executor,
  speakerId: string | undefined,
  pageSize = 500,
): AsyncGenerator<Question> {
  let after = '';
  for (;;) {
    let q = db
      .selectFrom('questions')
      .selectAll()
      .$call(oldestFirst({ after, limit: pageSize }));
    if (speakerId) q = q.where('speaker_id', '=', speakerId);
    const rows = await q.execute();
    for (const row of rows) yield toQuestion(row);
    const last = rows.at(-1);
    if (!last || rows.length < pageSize) return;
    after = last.id;
  }
}

/** Counts for the admin's overview. */
/** Every speaker with their questions (every status) and the votes on them, most asked first. */
export async function questionsPerSpeaker(
  db: Executor,
): Promise<{ speakerId: string; name: string; questions: number; votes: number }[]> {
  const rows = await db
    .selectFrom('speakers')
    .leftJoin('questions', 'questions.speaker_id', 'speakers.id')
    .select((eb) => [
      'speakers.id as id',
      'speakers.name as name',
      eb.fn.count<number | string>('questions.id').as('questions'),
      eb.fn.sum<number | string | null>('questions.votes').as('votes'),
    ])
    .groupBy(['speakers.id', 'speakers.name'])
    .execute();
  return rows
    .map((row) => ({
      speakerId: row.id,
      name: row.name,
      questions: Number(row.questions),
      votes: Number(row.votes ?? 0),
    }))
    .sort((a, b) => b.questions - a.questions || b.votes - a.votes || a.name.localeCompare(b.name));
}

export async function questionCounts(
  db: Executor,
): Promise<{ questions: number; pending: number; votes: number }> {
  const row = await db
    .selectFrom('questions')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('questions'),
      eb.fn
        .sum<number | string | null>(sql`case when status = 'pending' then 1 else 0 end`)
        .as('pending'),
      eb.fn.sum<number | string | null>('votes').as('votes'),
    ])
    .executeTakeFirstOrThrow();
  return {
    questions: Number(row.questions),
    pending: Number(row.pending ?? 0),
    votes: Number(row.votes ?? 0),
  };
}

/** The questions attendee `askerId` asked with their token, oldest first, a page at a time. */
export async function listQuestionsAskedBy(
  db: Executor,
  askerId: string,
  page: PageAfter,
): Promise<Question[]> {
  const rows = await db
    .selectFrom('questions')
    .selectAll()
    .where('asker_id', '=', askerId)
    .$call(oldestFirst(page))
    .execute();
  return rows.map(toQuestion);
}

/** One attendee's vote: the question, and when the vote was given. */
export interface VoteOf {
  questionId: string;
  question: string;
  speakerName: string;
  votedAt: string;
}

/** The votes attendee `attendeeId` gave, oldest question first, a page after `after`. */
export async function listVotesOf(
  db: Executor,
  attendeeId: string,
  page: PageAfter,
): Promise<VoteOf[]> {
  let query = db
    .selectFrom('question_votes as v')
    .innerJoin('questions as q', 'q.id', 'v.question_id')
    .select([
      'v.question_id as questionId',
      'q.question as question',
      'q.speaker_name as speakerName',
      'v.created_at as votedAt',
    ])
    .where('v.attendee_id', '=', attendeeId)
    .orderBy('v.question_id')
    .limit(page.limit);
  if (page.after) query = query.where('v.question_id', '>', page.after);
  return query.execute();
}
