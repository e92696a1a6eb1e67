import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { QueuedItem } from './offline-queue.ts';

/** IndexedDB as idb-keyval sees it, in memory: what the queue keeps across page loads. */
const stored = new Map<string, QueuedItem>();
vi.mock('idb-keyval', () => ({
  createStore: () => 'outbox',
  entries: () => Promise.resolve([...stored.entries()]),
  set: (key: string, value: QueuedItem) => {
    stored.set(key, structuredClone(value));
    return Promise.resolve();
  },
  del: (key: string) => {
    stored.delete(key);
    return Promise.resolve();
  },
}));

/** An answer as the server sends it, read the way every call reads its answer. */
async function answered(status: number, body: unknown, headers: Record<string, string> = {}) {
  const { readResponse } = await import('./api-client.ts');
  const response = new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return readResponse(z.unknown(), response).catch((error: unknown) => error);
}

/**
 * A fresh queue (its state is the module's) with one sender that answers what `answers` makes,
 * in turn (made after the modules are fresh, so that its errors are the queue's ApiError).
 */
async function queueAnswering(makeAnswers: () => Promise<unknown[]>) {
  vi.resetModules();
  const queue = await import('./offline-queue.ts');
  const answers = await makeAnswers();
  const sent: QueuedItem[] = [];
  queue.registerSender('question', (item) => {
    const answer = answers.shift();
    if (answer instanceof Error) return Promise.reject(answer);
    sent.push(item);
    return Promise.resolve(answer);
  });
  const { id, sent: delivered } = await queue.enqueue({
    kind: 'question',
    label: 'Does it come back?',
    files: [],
    payload: { question: 'Does it come back?' },
  });
  const outcome: { value?: unknown; error?: unknown } = {};
  delivered.then(
    (value) => (outcome.value = value),
    (error: unknown) => (outcome.error = error),
  );
  return { queue, id, sent, outcome };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('navigator', { onLine: true });
  stored.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the offline queue, when the server cannot take a post now', () => {
  it.each([
    [503, { error: 'The database cannot be reached right now', code: 'SERVICE_UNAVAILABLE' }],
    [429, { error: 'Too many requests; try again in 3 seconds', code: 'RATE_LIMITED' }],
  ])(
    'keeps it queued on %i, waits the Retry-After, and delivers it once after',
    async (status, body) => {
      const busy = () => answered(status, body, { 'retry-after': '3' });
      const { id, sent, outcome } = await queueAnswering(async () => [
        await busy(),
        await busy(),
        'stored',
      ]);
      await vi.advanceTimersByTimeAsync(0);

      // Refused for now, not for good: still queued, with no error, and not settled.
      expect(sent).toEqual([]);
      expect(stored.get(id)).toBeDefined();
      expect(stored.get(id)?.error).toBeUndefined();
      expect(outcome).toEqual({});

      // Not before the server said.
      await vi.advanceTimersByTimeAsync(2_900);
      expect(sent).toEqual([]);
      // Again busy, then taken: sent once, and gone from the queue.
      await vi.advanceTimersByTimeAsync(120_000);
      expect(sent.map((item) => item.id)).toEqual([id]);
      expect(outcome).toEqual({ value: 'stored' });
      expect(stored.size).toBe(0);
      await vi.advanceTimersByTimeAsync(300_000);
      expect(sent).toHaveLength(1);
    },
  );

  it('retries a server that is busy without saying for how long, too', async () => {
    const { id, sent, outcome } = await queueAnswering(async () => [
      await answered(503, {}),
      'stored',
    ]);
    await vi.advanceTimersByTimeAsync(0);
    expect(stored.get(id)?.error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sent).toHaveLength(1);
    expect(outcome).toEqual({ value: 'stored' });
  });

  it('still shows a refusal (a 4xx other than 408, 425 and 429) as a failure, sent once', async () => {
    const { id, sent, outcome } = await queueAnswering(async () => [
      await answered(400, { error: 'Question is required', code: 'VALIDATION' }),
      'stored',
    ]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sent).toEqual([]);
    expect(stored.get(id)?.error).toBe('Question is required');
    expect(outcome.error).toMatchObject({ status: 400 });
  });
});
