import { clear, createStore, del, entries, set } from 'idb-keyval';
import { useSyncExternalStore } from 'react';
import { ApiError, isRetryLater } from './api-client.ts';

/**
 * What waits to be sent: a memory post or a question made on a bad network. Kept in IndexedDB
 * (files too), so closing the page loses nothing; sent in order, each once, when the browser is
 * online. Each feature says how its kind is sent (`registerSender`).
 */
export interface QueuedItem {
  id: string;
  kind: 'memory' | 'question';
  /** What the person sees in the list ("Memory: …", "Question to …"). */
  label: string;
  createdAt: number;
  /** Files still to send (a memory's; finished ones are taken off as they go). */
  files: File[];
  payload: Record<string, string>;
  /** Why the server refused it, when it did (it stays until the person removes it). */
  error?: string;
}

/** What the list shows of an item: the item, and how far it got. */
export interface QueueEntry extends QueuedItem {
  /** Sending now (else waiting for the connection, or its turn). */
  sending: boolean;
  /** Share of its bytes sent (0 to 1) while sending. */
  progress: number;
  /** Sending, but the connection is gone: it goes on when it comes back. */
  waiting?: boolean;
  /** The server asked to try again later (busy, down a moment): when it will be (ms). */
  retryAt?: number;
}

/** Sends one item; `update` keeps what is left of it (a memory's unsent files). */
export type Sender = (
  item: QueuedItem,
  context: {
    update: (item: QueuedItem) => Promise<void>;
    progress: (fraction: number) => void;
    waiting: (waiting: boolean) => void;
    signal: AbortSignal;
  },
) => Promise<unknown>;

const senders = new Map<QueuedItem['kind'], Sender>();
const settled = new Map<
  string,
  { resolve: (value: unknown) => void; reject: (e: unknown) => void }
>();
let store: ReturnType<typeof createStore> | undefined;
let items: QueueEntry[] = [];
let loaded: Promise<void> | undefined;
let running = false;
let current: { id: string; abort: AbortController } | undefined;
/** The next try after the server asked to wait; the queue sends nothing until then. */
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** How many times in a row the server asked to wait, per item (for the backoff). */
const refusedForNow = new Map<string, number>();
const listeners = new Set<() => void>();

const db = () => (store ??= createStore('confab-outbox', 'items'));

function publish(next: QueueEntry[]) {
  items = next;
  for (const listener of listeners) listener();
}

const patchEntry = (id: string, change: Partial<QueueEntry>) =>
  publish(items.map((entry) => (entry.id === id ? { ...entry, ...change } : entry)));

function load(): Promise<void> {
  loaded ??= entries<string, QueuedItem>(db())
    .then((stored) => {
      const known = new Set(items.map((item) => item.id));
      const restored = stored
        .map(([, item]) => item)
        .filter((item) => !known.has(item.id))
        .map((item) => ({ ...item, sending: false, progress: 0 }));
      publish([...items, ...restored].sort((a, b) => a.createdAt - b.createdAt));
    })
    .catch(() => undefined);
  return loaded;
}

/** Says how items of `kind` are sent, and starts sending what waits. */
export function registerSender(kind: QueuedItem['kind'], sender: Sender): void {
  senders.set(kind, sender);
  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => void run());
    void load().then(run);
  }
}

const isNetworkFailure = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * How long to wait before sending again an item the server asked to retry later, the
 * `attempt`-th time in a row: what its `Retry-After` says, at least, and from 2 s doubling to a
 * minute, with up to a quarter more at random, so that a room of phones does not come back in
 * step.
 */
function retryDelayMs(attempt: number, retryAfterSeconds?: number): number {
  const backoff = Math.min(60_000, 2_000 * 2 ** Math.max(0, attempt - 1));
  return Math.max(backoff, (retryAfterSeconds ?? 0) * 1000) * (1 + Math.random() / 4);
}

/** Sends what waits, oldest first, one at a time, while the browser is online. */
async function run(): Promise<void> {
  if (running) return;
  running = true;
  try {
    await load();
    for (;;) {
      if (!navigator.onLine || retryTimer !== undefined) return;
      const next = items.find((item) => !item.error && senders.has(item.kind));
      const sender = next && senders.get(next.kind);
      if (!next || !sender) return;
      const abort = new AbortController();
      current = { id: next.id, abort };
      patchEntry(next.id, { sending: true, progress: 0 });
      try {
        const result = await sender(next, {
          update: async (item) => {
            await set(item.id, item, db());
            patchEntry(item.id, { files: item.files, payload: item.payload });
          },
          progress: (fraction) => patchEntry(next.id, { progress: fraction, waiting: false }),
          waiting: (waiting) => patchEntry(next.id, { waiting }),
          signal: abort.signal,
        });
        await del(next.id, db());
        refusedForNow.delete(next.id);
        publish(items.filter((item) => item.id !== next.id));
        settled.get(next.id)?.resolve(result);
        settled.delete(next.id);
      } catch (error) {
        if (abort.signal.aborted) continue;
        if (isNetworkFailure(error)) {
          // Gone offline midway: it waits, and the 'online' event starts again.
          patchEntry(next.id, { sending: false });
          return;
        }
        if (isRetryLater(error)) {
          // The server is busy or down a moment (503, 429…): not a refusal. It stays first in
          // line, and the queue tries again when the server said, or later.
          const attempt = (refusedForNow.get(next.id) ?? 0) + 1;
          refusedForNow.set(next.id, attempt);
          const delay = retryDelayMs(attempt, error.retryAfterSeconds);
          patchEntry(next.id, { sending: false, retryAt: Date.now() + delay });
          retryTimer = setTimeout(() => {
            retryTimer = undefined;
            patchEntry(next.id, { retryAt: undefined });
            void run();
          }, delay);
          return;
        }
        refusedForNow.delete(next.id);
        const message = error instanceof Error ? error.message : 'It could not be sent';
        const failed = { ...stripEntry(next), error: message };
        await set(next.id, failed, db()).catch(() => undefined);
        patchEntry(next.id, { sending: false, error: message });
        settled.get(next.id)?.reject(error);
        settled.delete(next.id);
      } finally {
        // One that waits (offline, or asked to retry later) is still to be settled.
        current = undefined;
      }
    }
  } finally {
    running = false;
  }
}

const stripEntry = ({
  sending: _sending,
  progress: _progress,
  waiting: _waiting,
  retryAt: _retryAt,
  ...item
}: QueueEntry): QueuedItem => item;

/**
 * Puts an item in the queue (kept in IndexedDB first) and starts sending when online. Resolves
 * with what its sender answered once it is sent; rejects when the server refuses it or it is
 * cancelled.
 */
export async function enqueue(item: Omit<QueuedItem, 'id' | 'createdAt'>): Promise<{
  id: string;
  sent: Promise<unknown>;
}> {
  await load();
  const queued: QueuedItem = { ...item, id: crypto.randomUUID(), createdAt: Date.now() };
  const sent = new Promise<unknown>((resolve, reject) => {
    settled.set(queued.id, { resolve, reject });
  });
  // Never unhandled: callers that do not wait for it still see the item's state in the list.
  sent.catch(() => undefined);
  try {
    await set(queued.id, queued, db());
  } catch {
    // Private browsing without IndexedDB: it is kept for this page only.
  }
  publish([...items, { ...queued, sending: false, progress: 0 }]);
  void run();
  return { id: queued.id, sent };
}

/** Takes an item out of the queue; one being sent is stopped. */
export async function cancelQueued(id: string): Promise<void> {
  if (current?.id === id) current.abort.abort();
  const waitingOnIt = items.find((item) => item.id === id)?.retryAt !== undefined;
  await del(id, db()).catch(() => undefined);
  publish(items.filter((item) => item.id !== id));
  settled.get(id)?.reject(new DOMException('Cancelled', 'AbortError'));
  settled.delete(id);
  refusedForNow.delete(id);
  if (waitingOnIt && retryTimer !== undefined) {
    // The ones behind it need not wait for the server's answer to it.
    clearTimeout(retryTimer);
    retryTimer = undefined;
    void run();
  }
}

/**
 * Empties the queue, on this device: what is being sent stops, and nothing waiting is sent (the
 * attendee erased their data, decision 214).
 */
export async function clearQueue(): Promise<void> {
  current?.abort.abort();
  if (retryTimer !== undefined) clearTimeout(retryTimer);
  retryTimer = undefined;
  const dropped = [...items];
  publish([]);
  await clear(db()).catch(() => undefined);
  // What a load under way restores now is dropped too.
  await load();
  dropped.push(...items);
  publish([]);
  for (const item of dropped) {
    settled.get(item.id)?.reject(new DOMException('Cancelled', 'AbortError'));
    settled.delete(item.id);
  }
  refusedForNow.clear();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** What waits to be sent, oldest first (of one kind, when given). */
export function useQueue(kind?: QueuedItem['kind']): QueueEntry[] {
  const all = useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
  return kind ? all.filter((item) => item.kind === kind) : all;
}
