import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Poll } from '../../../../shared/schemas/poll.ts';
import { FIXTURE_SESSION_ID, pollFixture } from '../../../../../tests/support/poll-fixture.ts';
import {
  fetchPolls,
  pollViewOf,
  pollsKey,
  pollsRoom,
  removePollFromLists,
  updatePollInLists,
} from './get-polls.ts';

const SESSION = { sessionId: FIXTURE_SESSION_ID };
const EVENT = { sessionId: null };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('which view a poll is', () => {
  it('is the owner’s for a draft, hidden results or a quiz’s right options', () => {
    expect(pollViewOf(pollFixture(1, { state: 'draft' }))).toBe('owner');
    expect(pollViewOf(pollFixture(1, { resultsVisible: false }))).toBe('owner');
    expect(
      pollViewOf(pollFixture(1, { type: 'quiz', correctOptionIds: ['1'], state: 'open' })),
    ).toBe('owner');
    expect(
      pollViewOf(
        pollFixture(1, {
          type: 'open',
          options: [],
          results: { answers: [{ _id: pollFixture(9)._id, text: 'Hi', hidden: false }] },
        }),
      ),
    ).toBe('owner');
  });

  it('is everybody’s when an owner would see more', () => {
    expect(pollViewOf(pollFixture(1, { resultsVisible: false, results: null }))).toBe('public');
    expect(pollViewOf(pollFixture(1, { type: 'quiz' }))).toBe('public');
    expect(
      pollViewOf(
        pollFixture(1, {
          type: 'open',
          options: [],
          results: { answers: [{ _id: pollFixture(9)._id, text: 'Hi' }] },
        }),
      ),
    ).toBe('public');
  });

  it('is both when the two views are the same', () => {
    expect(pollViewOf(pollFixture(1))).toBe('both');
    expect(
      pollViewOf(pollFixture(1, { type: 'open', options: [], results: { answers: [] } })),
    ).toBe('both');
  });
});

describe('the socket’s polls in the cached lists', () => {
  const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

  it('replaces a poll where it is held and adds one just opened, in order', () => {
    const queries = client();
    const key = pollsKey(SESSION, 'public');
    queries.setQueryData<Poll[]>(key, [pollFixture(1), pollFixture(3)]);
    updatePollInLists(queries, pollFixture(3, { voters: 5 }));
    updatePollInLists(queries, pollFixture(2));
    expect(queries.getQueryData<Poll[]>(key)?.map((poll) => [poll.title, poll.voters])).toEqual([
      ['Poll 1?', 0],
      ['Poll 2?', 0],
      ['Poll 3?', 5],
    ]);
  });

  it('never puts an owner’s view in a public list, nor a public one in an owner’s', () => {
    const queries = client();
    const publicKey = pollsKey(SESSION, 'public');
    const ownerKey = pollsKey(SESSION, 'owner');
    const hiddenForOwner = pollFixture(1, { resultsVisible: false, voters: 3 });
    const hiddenForAll = pollFixture(1, { resultsVisible: false, results: null, voters: 3 });
    queries.setQueryData<Poll[]>(publicKey, [hiddenForAll]);
    queries.setQueryData<Poll[]>(ownerKey, [hiddenForOwner]);

    updatePollInLists(queries, pollFixture(2, { state: 'draft' }));
    updatePollInLists(queries, { ...hiddenForAll, voters: 4 });
    expect(queries.getQueryData<Poll[]>(publicKey)).toEqual([{ ...hiddenForAll, voters: 4 }]);
    expect(queries.getQueryData<Poll[]>(ownerKey)?.map((poll) => poll.title)).toEqual([
      'Poll 1?',
      'Poll 2?',
    ]);
    expect(queries.getQueryData<Poll[]>(ownerKey)?.[0]?.results).not.toBeNull();

    // Results shown: the views are one, and both lists take it.
    updatePollInLists(queries, pollFixture(1, { voters: 6 }));
    expect(queries.getQueryData<Poll[]>(publicKey)?.[0]?.voters).toBe(6);
    expect(queries.getQueryData<Poll[]>(ownerKey)?.[0]?.voters).toBe(6);
  });

  it('keeps a session’s polls out of the event’s list and of other sessions’', () => {
    const queries = client();
    const eventKey = pollsKey(EVENT, 'public');
    const otherKey = pollsKey({ sessionId: pollFixture(77)._id }, 'public');
    queries.setQueryData<Poll[]>(eventKey, []);
    queries.setQueryData<Poll[]>(otherKey, []);
    updatePollInLists(queries, pollFixture(1));
    updatePollInLists(queries, pollFixture(2, { sessionId: null }));
    expect(queries.getQueryData<Poll[]>(eventKey)?.map((poll) => poll.title)).toEqual(['Poll 2?']);
    expect(queries.getQueryData<Poll[]>(otherKey)).toEqual([]);
  });

  it('leaves lists not loaded alone, and removes a deleted poll from every list', () => {
    const queries = client();
    updatePollInLists(queries, pollFixture(1));
    expect(queries.getQueryData(pollsKey(SESSION, 'public'))).toBeUndefined();
    queries.setQueryData<Poll[]>(pollsKey(SESSION, 'public'), [pollFixture(1), pollFixture(2)]);
    queries.setQueryData<Poll[]>(pollsKey(SESSION, 'owner'), [pollFixture(1)]);
    removePollFromLists(queries, pollFixture(1)._id);
    expect(queries.getQueryData<Poll[]>(pollsKey(SESSION, 'public'))).toEqual([pollFixture(2)]);
    expect(queries.getQueryData<Poll[]>(pollsKey(SESSION, 'owner'))).toEqual([]);
  });
});

describe('reading and watching', () => {
  it('asks for a session’s or the event’s polls, with the owner’s token when given', async () => {
    const fetch = vi.fn(
      (_url: string, _init?: RequestInit) =>
        new Promise<Response>((resolve) => {
          resolve(new Response('[]', { headers: { 'content-type': 'application/json' } }));
        }),
    );
    vi.stubGlobal('fetch', fetch);
    await fetchPolls(SESSION);
    await fetchPolls(EVENT, 'speaker-token');
    expect(fetch.mock.calls[0]?.[0]).toBe(`/api/polls?sessionId=${FIXTURE_SESSION_ID}`);
    expect(new Headers(fetch.mock.calls[0]?.[1]?.headers).get('authorization')).toBeNull();
    expect(fetch.mock.calls[1]?.[0]).toBe('/api/polls?event=1');
    expect(new Headers(fetch.mock.calls[1]?.[1]?.headers).get('authorization')).toBe(
      'Bearer speaker-token',
    );
  });

  it('watches the session’s room, the owner’s moderation room, or none for the event', () => {
    expect(pollsRoom(SESSION)).toEqual({ room: 'session', sessionId: FIXTURE_SESSION_ID });
    expect(pollsRoom(EVENT)).toBeNull();
    expect(pollsRoom(SESSION, 'token')).toEqual({ room: 'moderation', token: 'token' });
  });
});
