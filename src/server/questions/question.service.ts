import type { Question, QuestionCreateRequest } from '../../shared/schemas/question.ts';
import type { AppDeps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import { scopesChangedBy } from '../lists/question-scopes.ts';
import { findSpeakerById } from '../speakers/speaker.repository.ts';
import { insertQuestion } from './question.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_UUIDV7_TIME = 2 ** 48 - 1;

/**
 * The id bound of a `since` value. Ids are UUIDv7: their first 48 bits are the creation time in
 * milliseconds, so "created after time T" is "id greater than the largest id of millisecond T",
 * and the lookup uses the same index as an id bound.
 */
export function idAfter(since: string): string {
  if (UUID.test(since)) return since.toLowerCase();
  const ms = Math.min(Math.max(Date.parse(since), 0), MAX_UUIDV7_TIME);
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-ffff-ffff-ffffffffffff`;
}

/**
 * Stores a question for an existing speaker and pushes it at once to everyone watching that
 * speaker (and the all-questions views). The stored speaker name is the speaker's own, whatever
 * name the client sent along.
 */
export async function askQuestion(
  deps: Pick<AppDeps, 'db' | 'realtime' | 'clock' | 'lists'>,
  input: QuestionCreateRequest,
): Promise<Question> {
  const speaker = await findSpeakerById(deps.db, input.speakerId.toLowerCase());
  if (!speaker) throw new HttpError(404, 'Speaker not found');
  const question = await insertQuestion(deps.db, {
    _id: newId(),
    speakerId: speaker._id,
    speakerName: speaker.name,
    askerUsername: input.askerUsername,
    question: input.question,
    createdAt: deps.clock.now().toISOString(),
  });
  // Before the answer, so the asker's next poll already finds it.
  await deps.lists.changed('questions', scopesChangedBy(question));
  deps.realtime.newQuestion(question);
  return question;
}
