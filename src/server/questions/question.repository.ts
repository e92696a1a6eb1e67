import type { Transaction } from 'kysely';
import type { Question } from '../../shared/schemas/question.ts';
import type { Database, Db, QuestionsTable } from '../db/database.ts';

type Executor = Db | Transaction<Database>;

const toQuestion = (row: QuestionsTable): Question => ({
  _id: row.id,
  speakerId: row.speaker_id,
  speakerName: row.speaker_name,
  askerUsername: row.asker_username,
  question: row.question,
  createdAt: row.created_at,
});

export async function insertQuestion(db: Executor, question: Question): Promise<Question> {
  const row: QuestionsTable = {
    id: question._id,
    speaker_id: question.speakerId,
    speaker_name: question.speakerName,
    asker_username: question.askerUsername,
    question: question.question,
    created_at: question.createdAt,
  };
  await db.insertInto('questions').values(row).execute();
  return toQuestion(row);
}

/** Which questions a list holds: ids sort by creation time, so every bound is an id. */
export interface QuestionFilter {
  speakerId?: string | undefined;
  askerUsername?: string | undefined;
  /** Only ids greater than this one. */
  after?: string | undefined;
  /** Only ids smaller than this one. */
  before?: string | undefined;
}

function filtered(db: Executor, filter: QuestionFilter) {
  let q = db.selectFrom('questions');
  if (filter.speakerId) q = q.where('speaker_id', '=', filter.speakerId);
  if (filter.askerUsername) q = q.where('asker_username', '=', filter.askerUsername);
  if (filter.after) q = q.where('id', '>', filter.after);
  if (filter.before) q = q.where('id', '<', filter.before);
  return q;
}

/**
 * Oldest first. With `after`, the first `limit` newer questions (a poll catching up); without,
 * the latest `limit` (a screen opening, or paging back with `before`).
 */
export async function listQuestions(
  db: Executor,
  filter: QuestionFilter,
  limit: number,
): Promise<Question[]> {
  const q = filtered(db, filter).selectAll().limit(limit);
  if (filter.after) {
    const rows = await q.orderBy('id', 'asc').execute();
    return rows.map(toQuestion);
  }
  const rows = await q.orderBy('id', 'desc').execute();
  return rows.reverse().map(toQuestion);
}

/** The newest id and the count of a filtered list: what tells whether it changed (ETag). */
export async function questionsVersion(
  db: Executor,
  filter: QuestionFilter,
): Promise<{ newestId: string | null; count: number }> {
  const row = await filtered(db, filter)
    .select((eb) => [
      eb.fn.max<string | null>('id').as('newest'),
      eb.fn.countAll<number | string>().as('count'),
    ])
    .executeTakeFirstOrThrow();
  return { newestId: row.newest, count: Number(row.count) };
}
