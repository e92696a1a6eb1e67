import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Question } from '../../../../shared/schemas/question.ts';
import {
  FIXTURE_SPEAKER_ID,
  questionFixture,
} from '../../../../../tests/support/question-fixture.ts';
import {
  catchUpQuestionLists,
  mergeQuestionIntoLists,
  questionsKey,
  questionsQueryOptions,
  updateQuestionInLists,
} from './get-questions.ts';

const SPEAKER = FIXTURE_SPEAKER_ID;
const question = (n: number, speakerId = SPEAKER) => questionFixture(n, { speakerId });

/** A server whose next answer to the list is sent only when the test says so. */
function slowServer() {
  let send: (list: Question[]) => void = () => undefined;
  const fetch = vi.fn(
    (_url: string) =>
      new Promise<Response>((resolve) => {
        send = (list) =>
          resolve(
            new Response(JSON.stringify(list), {
              headers: { 'content-type': 'application/json' },
            }),
          );
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return { fetch, answer: (list: Question[]) => send(list) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a speaker’s questions, polled with the socket as the first source', () => {
  const scope = { kind: 'speaker', speakerId: SPEAKER } as const;
  const ids = (client: QueryClient, scope: { kind: 'speaker'; speakerId: string }) =>
    client.getQueryData<Question[]>(questionsKey(scope))?.map((q) => q.question);

  it('keeps what the socket brought while a whole list was on its way', async () => {
    const client = new QueryClient();
    client.setQueryData(questionsKey(scope), []);
    const server = slowServer();
    const polled = client.query(questionsQueryOptions(scope));
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    // Asked after the server read its list: the events arrive before the answer.
    mergeQuestionIntoLists(client, question(1));
    mergeQuestionIntoLists(client, question(2));
    server.answer([]);
    await polled;
    expect(ids(client, scope)).toEqual(['Question 1?', 'Question 2?']);
  });

  it('drops what it held before the whole list that the list no longer has', async () => {
    const other = '01a21ba3-0000-7000-8000-0000000000ff';
    const scope = { kind: 'speaker', speakerId: other } as const;
    const client = new QueryClient();
    client.setQueryData(questionsKey(scope), [question(1, other), question(2, other)]);
    // The first poll of a list reads it whole (and again every 30 s).
    const server = slowServer();
    const polled = client.query({ ...questionsQueryOptions(scope), staleTime: 0 });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    expect(String(server.fetch.mock.calls[0]?.[0])).not.toContain('since=');
    mergeQuestionIntoLists(client, question(3, other));
    server.answer([question(2, other)]);
    await polled;
    expect(ids(client, scope)).toEqual(['Question 2?', 'Question 3?']);
  });

  it('reads the whole list again after a reconnect: a pin moved while away is not kept', async () => {
    const other = '01a21ba3-0000-7000-8000-0000000000fe';
    const scope = { kind: 'speaker', speakerId: other } as const;
    const client = new QueryClient();
    const pinned = { ...question(1, other), pinned: true };
    client.setQueryData(questionsKey(scope), [pinned, question(2, other)]);
    const poll = async (list: Question[]) => {
      const server = slowServer();
      const polled = client.query({ ...questionsQueryOptions(scope), staleTime: 0 });
      await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
      const url = String(server.fetch.mock.calls[0]?.[0]);
      server.answer(list);
      await polled;
      return url;
    };
    const now = [
      { ...question(1, other), pinned: false },
      { ...question(2, other), pinned: true },
    ];
    // The first poll reads the list whole; the next ones only what is newer.
    expect(await poll([pinned, question(2, other)])).not.toContain('since=');
    expect(await poll([])).toContain('since=');
    // The socket came back after the pin moved: the catch-up reads the list whole.
    catchUpQuestionLists();
    expect(await poll(now)).not.toContain('since=');
    expect(client.getQueryData<Question[]>(questionsKey(scope))?.map((q) => q.pinned)).toEqual([
      false,
      true,
    ]);
  });
});

describe('a session’s questions', () => {
  const SESSION = '01a21ba3-0000-7000-8000-00000000005e';
  const OTHER_SESSION = '01a21ba3-0000-7000-8000-00000000005f';
  const scope = { kind: 'session', sessionId: SESSION } as const;
  const inSession = (n: number, sessionId: string | null) => ({ ...question(n), sessionId });
  const texts = (client: QueryClient) =>
    client.getQueryData<Question[]>(questionsKey(scope))?.map((q) => q.question);

  it('are asked for by the session, not by its speakers', async () => {
    const client = new QueryClient();
    const server = slowServer();
    const loaded = client.query(questionsQueryOptions(scope));
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    const url = String(server.fetch.mock.calls[0]?.[0]);
    expect(url).toContain(`sessionId=${SESSION}`);
    expect(url).not.toContain('speakerId=');
    server.answer([inSession(1, SESSION)]);
    await loaded;
    expect(texts(client)).toEqual(['Question 1?']);
  });

  it('take in, live, the questions that name the session and no others of the same speaker', () => {
    const client = new QueryClient();
    client.setQueryData(questionsKey(scope), []);
    const speakers = questionsKey({ kind: 'speaker', speakerId: SPEAKER });
    client.setQueryData(speakers, []);
    // The same speaker's question in their other talk, and one of no session.
    mergeQuestionIntoLists(client, inSession(1, OTHER_SESSION));
    mergeQuestionIntoLists(client, inSession(2, null));
    mergeQuestionIntoLists(client, inSession(3, SESSION));
    updateQuestionInLists(client, { ...inSession(4, SESSION), votes: 2 });
    expect(texts(client)).toEqual(['Question 3?', 'Question 4?']);
    // The speaker's own list still has them all.
    expect(client.getQueryData<Question[]>(speakers)).toHaveLength(4);
  });
});
