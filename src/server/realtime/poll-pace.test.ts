import { createServer } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Poll } from '../../shared/schemas/poll.ts';
import {
  type LivePoll,
  POLL_UPDATE_INTERVAL_MS,
  POLL_WRITES_PER_SECOND,
  type Realtime,
  createRealtime,
  pollWindowFor,
} from './realtime.ts';

const POLL_ID = 'poll-1';

/** The poll as the database holds it at `revision`: one voter per vote. */
const livePoll = (revision: number): LivePoll => ({
  revision,
  sessionId: null,
  speakerIds: [],
  owner: { _id: POLL_ID, voters: revision } as unknown as Poll,
  shown: null,
});

/**
 * A database whose reads of the poll the test answers one by one: each read waits until the
 * test answers it with the poll as it is then, or fails it.
 */
function heldReads() {
  let revision = 0;
  const waiting: { resolve: (live: LivePoll) => void; reject: (error: Error) => void }[] = [];
  let reads = 0;
  const read = () => {
    reads += 1;
    return new Promise<LivePoll>((resolve, reject) => waiting.push({ resolve, reject }));
  };
  return {
    read,
    get reads() {
      return reads;
    },
    get waiting() {
      return waiting.length;
    },
    vote: () => (revision += 1),
    /** Answers the oldest waiting read with the poll as it is now. */
    answer: async () => {
      waiting.shift()?.resolve(livePoll(revision));
      await vi.advanceTimersByTimeAsync(0);
    },
    fail: async () => {
      waiting.shift()?.reject(new Error('connection terminated'));
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe('the pace of a poll’s pollUpdated', () => {
  let realtime: Realtime | undefined;
  /** The voters of every pollUpdated sent to the poll's owners, in order. */
  let sent: number[];
  const warn = vi.fn();
  const log = { warn, debug: vi.fn() } as unknown as FastifyBaseLogger;

  const start = (read: (pollId: string) => Promise<LivePoll | undefined>) => {
    realtime = createRealtime(createServer(), log, undefined, read);
    const broadcast = {
      emit: (_event: string, payload: { poll: Poll }) => sent.push(payload.poll.voters),
    };
    vi.spyOn(realtime.io, 'to').mockReturnValue(broadcast as never);
    return realtime;
  };
  const voted = (db: ReturnType<typeof heldReads>) => {
    const revision = db.vote();
    realtime?.on({ type: 'pollVoted', pollId: POLL_ID, sessionId: null, revision }, 'here');
  };

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    warn.mockClear();
  });
  afterEach(async () => {
    await realtime?.close();
    realtime = undefined;
    vi.useRealTimers();
  });

  it('sends what a read slower than the window read, then the changes that came meanwhile', async () => {
    const db = heldReads();
    start(db.read);
    voted(db);
    // The read outlasts its window, and no change came during it.
    await vi.advanceTimersByTimeAsync(POLL_UPDATE_INTERVAL_MS * 3);
    await db.answer();
    expect(sent).toEqual([1]);

    // Another slow read, with the burst's last votes arriving while it runs.
    voted(db);
    expect(db.reads).toBe(2);
    await vi.advanceTimersByTimeAsync(POLL_UPDATE_INTERVAL_MS / 2);
    voted(db);
    voted(db);
    await vi.advanceTimersByTimeAsync(POLL_UPDATE_INTERVAL_MS * 3);
    // One read at a time: the votes wait for the read under way.
    expect(db.waiting).toBe(1);
    await db.answer();
    // That read began after the last vote: it carries the final state.
    expect(db.reads).toBe(3);
    await db.answer();
    await vi.advanceTimersByTimeAsync(POLL_UPDATE_INTERVAL_MS * 4);
    expect(sent).toEqual([1, 4, 4]);
    expect(db.reads).toBe(3);
  });

  it('reads the poll again at the end of the window when a read fails', async () => {
    const db = heldReads();
    start(db.read);
    voted(db);
    await db.answer();
    expect(sent).toEqual([1]);
    voted(db);
    // The last vote's read fails; no vote comes after it.
    await vi.advanceTimersByTimeAsync(POLL_UPDATE_INTERVAL_MS);
    await db.fail();
    expect(warn).toHaveBeenCalledOnce();
    expect(db.reads).toBe(2);
    await vi.advanceTimersByTimeAsync(POLL_UPDATE_INTERVAL_MS);
    expect(db.reads).toBe(3);
    await db.answer();
    expect(sent).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(POLL_UPDATE_INTERVAL_MS * 4);
    expect(db.reads).toBe(3);
  });

  it('gives a poll that cannot be read up after a few tries, one a window', async () => {
    const read = vi.fn(() => Promise.reject(new Error('database is down')));
    start(read);
    realtime?.on({ type: 'pollVoted', pollId: POLL_ID, sessionId: null, revision: 1 }, 'here');
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(POLL_UPDATE_INTERVAL_MS * 20);
    expect(read).toHaveBeenCalledTimes(4);
    expect(sent).toEqual([]);
  });

  it('sends at most one update a window during a burst, and the final state last', async () => {
    let revision = 0;
    const read = vi.fn(() => Promise.resolve(livePoll(revision)));
    start(read);
    // 200 votes over a second.
    for (let vote = 1; vote <= 200; vote += 1) {
      revision = vote;
      realtime?.on({ type: 'pollVoted', pollId: POLL_ID, sessionId: null, revision }, 'here');
      await vi.advanceTimersByTimeAsync(5);
    }
    await vi.advanceTimersByTimeAsync(POLL_UPDATE_INTERVAL_MS * 4);
    expect(sent.length).toBeLessThanOrEqual(1000 / POLL_UPDATE_INTERVAL_MS + 1);
    expect(sent.at(-1)).toBe(200);
  });

  it('slows a poll many of the instance’s sockets watch to its writes a second', async () => {
    let revision = 0;
    const read = vi.fn(() =>
      Promise.resolve({ ...livePoll(revision), shown: { _id: POLL_ID } as unknown as Poll }),
    );
    const live = start(read);
    // 10,000 sockets of this instance watch the event-wide poll.
    const sockets = live.io.of('/').sockets as Map<string, never>;
    for (let i = 0; i < 10_000; i += 1) sockets.set(`socket-${i}`, undefined as never);
    const writes: number[] = [];
    vi.spyOn(live.io, 'local', 'get').mockReturnValue({
      to: (batch: string[]) => ({ emit: () => writes.push(batch.length) }),
    } as never);
    // A vote every 50 ms for four seconds.
    for (let vote = 1; vote <= 80; vote += 1) {
      revision = vote;
      live.on({ type: 'pollVoted', pollId: POLL_ID, sessionId: null, revision }, 'here');
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(2000);
    // Once a second (the first at once), not 4 times: 10,000 writes a second.
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(sent.length).toBeLessThanOrEqual(6);
    expect(sent.at(-1)).toBe(80);
    expect(writes.reduce((sum, n) => sum + n, 0)).toBe(sent.length * 10_000);
    sockets.clear();
  });

  it('keeps 4 a second up to 2,500 watchers, and grows the window past them', () => {
    expect(pollWindowFor(0)).toBe(POLL_UPDATE_INTERVAL_MS);
    expect(pollWindowFor(2_500)).toBe(POLL_UPDATE_INTERVAL_MS);
    expect(pollWindowFor(5_000)).toBe(500);
    expect(pollWindowFor(POLL_WRITES_PER_SECOND)).toBe(1000);
  });
});
