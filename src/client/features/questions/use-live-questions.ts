import type { QueryClient } from '@tanstack/react-query';
import type { WatchRequest } from '../../../shared/events.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { mergeById } from '../../lib/merge-by-id.ts';
import { useLiveUpdates } from '../../lib/live.ts';
import { type QuestionsScope, inScope } from './api/get-questions.ts';

function scopeOfKey(key: readonly unknown[]): QuestionsScope | null {
  const [, kind, value] = key;
  if (kind === 'all') return { kind: 'all' };
  if (kind === 'speaker' && typeof value === 'string') return { kind: 'speaker', speakerId: value };
  if (kind === 'asker' && typeof value === 'string') return { kind: 'asker', username: value };
  return null;
}

/** Adds a question to every loaded list it belongs in; lists not loaded yet fetch it anyway. */
export function mergeQuestionIntoCaches(client: QueryClient, question: Question): void {
  for (const [key, data] of client.getQueriesData<Question[]>({ queryKey: ['questions'] })) {
    const scope = scopeOfKey(key);
    if (!data || !scope || !inScope(scope, question)) continue;
    client.setQueryData<Question[]>(key, (current) => mergeById(current, [question]));
  }
}

/** Speakers lists are sorted by name, as the server sorts them. */
const byName = (a: Speaker, b: Speaker) =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a._id < b._id ? -1 : 1);

export function mergeSpeakerIntoCaches(client: QueryClient, speaker: Speaker): void {
  for (const [key, data] of client.getQueriesData<Speaker[]>({ queryKey: ['speakers'] })) {
    if (!data) continue;
    client.setQueryData<Speaker[]>(key, (current) => mergeById(current, [speaker], byName));
  }
}

/**
 * Keeps the question and speaker lists live: new questions and speakers are merged by id into
 * every loaded list they belong in, and each connect of the socket refetches the lists. `room`
 * is where the screen's questions come from: one speaker's, or every question.
 */
export function useLiveQuestions(room: WatchRequest | null | undefined): void {
  useLiveUpdates({
    on: {
      newQuestion: ({ question }, client) => mergeQuestionIntoCaches(client, question),
      speakerCreated: ({ speaker }, client) => mergeSpeakerIntoCaches(client, speaker),
    },
    refetchOnConnect: [['questions'], ['speakers']],
    room,
  });
}
