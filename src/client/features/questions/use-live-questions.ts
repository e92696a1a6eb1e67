import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { newQuestionEventSchema, speakerCreatedEventSchema } from '../../../shared/events.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { mergeById } from '../../lib/merge-by-id.ts';
import { withSocket } from '../../lib/socket.ts';
import { useSocketCatchUp } from '../../lib/socket-rooms.ts';
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
 * Keeps the question and speaker lists live: `newQuestion` and `speakerCreated` events are
 * parsed and merged by id into the caches; when the socket connects (first and after a drop) the
 * lists catch up on what came before. Polling stays on as the fallback.
 */
export function useLiveQuestions(): void {
  const client = useQueryClient();

  useEffect(() => {
    const onQuestion = (payload: unknown) => {
      const parsed = newQuestionEventSchema.safeParse(payload);
      if (parsed.success) mergeQuestionIntoCaches(client, parsed.data.question);
    };
    const onSpeaker = (payload: unknown) => {
      const parsed = speakerCreatedEventSchema.safeParse(payload);
      if (parsed.success) mergeSpeakerIntoCaches(client, parsed.data.speaker);
    };
    return withSocket((socket) => {
      socket.on('newQuestion', onQuestion);
      socket.on('speakerCreated', onSpeaker);
      return () => {
        socket.off('newQuestion', onQuestion);
        socket.off('speakerCreated', onSpeaker);
      };
    });
  }, [client]);

  const catchUp = useCallback(() => {
    void client.invalidateQueries({ queryKey: ['questions'] });
    void client.invalidateQueries({ queryKey: ['speakers'] });
  }, [client]);
  useSocketCatchUp(catchUp);
}
