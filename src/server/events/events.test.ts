import { describe, expect, it, vi } from 'vitest';
import { newId } from '../lib/ids.ts';
import { questionsScope } from '../lists/question-scopes.ts';
import { addSpeaker, askQuestion, watchingSocket } from '../../../tests/support/speakers.ts';
import { questionFixture } from '../../../tests/support/question-fixture.ts';
import { sharedBus } from '../../../tests/support/shared-bus.ts';
import { useTestApp } from '../../../tests/support/test-app.ts';
import type { DomainEvent } from './domain-events.ts';
import { type BusReceiver, type EventOrigin, Events } from './events.ts';
import { partsOf } from './postgres-bus.ts';

/** A subscriber that writes down what it hears, with a name, in one log shared by several. */
function recorder(log: string[], name: string) {
  return {
    on: (event: DomainEvent, origin: EventOrigin) =>
      log.push(`${name} ${event.type} ${event.type === 'memoryDeleted' ? event.id : ''} ${origin}`),
    missed: () => log.push(`${name} missed`),
  };
}

describe('Events', () => {
  it('hands each event once to every subscriber of every instance, caches before clients, in the order published', async () => {
    const instance = sharedBus();
    const [here, there] = [await instance(), await instance()];
    const log: string[] = [];
    // Subscribed in the reverse order of their stages: the stage decides, not the order.
    here.subscribe('clients', recorder(log, 'here:sockets'));
    here.subscribe('caches', recorder(log, 'here:lists'));
    const elsewhere: string[] = [];
    there.subscribe('clients', recorder(elsewhere, 'there:sockets'));
    there.subscribe('caches', recorder(elsewhere, 'there:lists'));

    for (const id of ['1', '2', '3']) await here.publish({ type: 'memoryDeleted', id });

    expect(log).toEqual(
      ['1', '2', '3'].flatMap((id) => [
        `here:lists memoryDeleted ${id} here`,
        `here:sockets memoryDeleted ${id} here`,
      ]),
    );
    expect(elsewhere).toEqual(
      ['1', '2', '3'].flatMap((id) => [
        `there:lists memoryDeleted ${id} elsewhere`,
        `there:sockets memoryDeleted ${id} elsewhere`,
      ]),
    );
  });

  it('tells every subscriber when the bus may have missed events, and goes on past one that throws', async () => {
    const failures: unknown[] = [];
    const events = new Events((error) => failures.push(error));
    let receiver: BusReceiver | undefined;
    await events.connect((given) => {
      receiver = given;
      return Promise.resolve({ send: () => Promise.resolve(), close: () => Promise.resolve() });
    });
    const log: string[] = [];
    events.subscribe('caches', {
      on: () => {
        throw new Error('a broken cache');
      },
    });
    events.subscribe('clients', recorder(log, 'sockets'));
    await events.publish({ type: 'memoryDeleted', id: '1' });
    receiver?.missed();
    expect(log).toEqual(['sockets memoryDeleted 1 here', 'sockets missed']);
    expect(failures).toHaveLength(1);
  });
});

describe('an event in NOTIFY payloads', () => {
  const bytesOfLargestPart = (json: string) =>
    Math.max(...partsOf(json).map((part) => Buffer.byteLength(part)));

  it('is one payload when it fits, and parts that each fit when it does not', () => {
    const small = JSON.stringify({
      type: 'questionCreated',
      question: questionFixture(1, { question: 'Why?' }),
    });
    expect(partsOf(small)).toEqual([small]);
    // Characters of 1, 2, 3 and 4 bytes (a surrogate pair), far beyond one payload.
    const large = JSON.stringify({
      type: 'questionCreated',
      question: questionFixture(1, { question: 'a é 日本語 😀 '.repeat(2_000) }),
    });
    expect(Buffer.byteLength(large)).toBeGreaterThan(8_000 * 4);
    const parts = partsOf(large);
    expect(parts.length).toBeGreaterThan(4);
    expect(parts.join('')).toBe(large);
    // Room for the header (40 bytes) under PostgreSQL's 8000.
    expect(bytesOfLargestPart(large)).toBeLessThanOrEqual(7_959);
    // No part ends inside a character (between the two halves of a surrogate pair).
    const highSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
    for (const part of parts) expect(highSurrogate(part.charCodeAt(part.length - 1))).toBe(false);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('events between instances on PostgreSQL', () => {
  const a = useTestApp({ database: 'postgres' });
  const b = useTestApp(() => ({
    database: 'postgres',
    env: { DATABASE_SCHEMA: a.config.databaseSchema ?? '' },
  }));

  /** What one app's subscribers hear from now on. */
  const heard = (app: typeof a) => {
    const got: { event: DomainEvent; origin: EventOrigin }[] = [];
    app.app.deps.events.subscribe('clients', {
      on: (event, origin) => got.push({ event, origin }),
    });
    return got;
  };

  it('reach every subscriber of every instance once, in the order published', async () => {
    const [onA, onB] = [heard(a), heard(b)];
    const published: DomainEvent[] = Array.from({ length: 20 }, () => ({
      type: 'memoryDeleted',
      id: newId(),
    }));
    for (const event of published) await a.app.deps.events.publish(event);

    await vi.waitFor(() => expect(onB).toHaveLength(published.length), { timeout: 5_000 });
    // A moment more for anything heard twice.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(onB).toEqual(published.map((event) => ({ event, origin: 'elsewhere' })));
    expect(onA).toEqual(published.map((event) => ({ event, origin: 'here' })));
  });

  it('carries an event larger than one NOTIFY whole, in its place among the others', async () => {
    const onB = heard(b);
    const large: DomainEvent = {
      type: 'questionCreated',
      question: questionFixture(1, { question: '日本語の質問 😀 "quoted" \\ '.repeat(1_500) }),
    };
    expect(Buffer.byteLength(JSON.stringify(large))).toBeGreaterThan(8_000 * 4);
    const before: DomainEvent = { type: 'memoryDeleted', id: newId() };
    const after: DomainEvent = { type: 'memoryDeleted', id: newId() };
    for (const event of [before, large, after]) await a.app.deps.events.publish(event);

    await vi.waitFor(() => expect(onB).toHaveLength(3), { timeout: 5_000 });
    expect(onB.map(({ event }) => event)).toEqual([before, large, after]);
  });

  it("refreshes another instance's list cache before its sockets tell a client to refetch", async () => {
    const speaker = await addSpeaker(a.url, 'Barbara Liskov');
    const poll = `${b.url}/api/questions/realtime?speakerId=${speaker._id}`;
    const tag = (await fetch(poll)).headers.get('etag') ?? '';
    expect((await fetch(poll, { headers: { 'if-none-match': tag } })).status).toBe(304);
    const scope = questionsScope(speaker._id);
    expect(b.app.deps.lists.peek('questions', scope)).toBeDefined();
    // What B's sockets find when they hear of the question: the cache has forgotten it.
    const knownWhenSent: (string | undefined)[] = [];
    b.app.deps.events.subscribe('clients', {
      on: (event) => {
        if (event.type === 'questionCreated') {
          knownWhenSent.push(b.app.deps.lists.peek('questions', scope));
        }
      },
    });
    // A client that refetches the moment the event reaches it.
    const socket = await watchingSocket(b.url, [{ room: 'speaker', speakerId: speaker._id }]);
    try {
      const refetched = new Promise<Response>((resolve) => {
        socket.once('newQuestion', () => {
          resolve(fetch(poll, { headers: { 'if-none-match': tag } }));
        });
      });
      const asked = await askQuestion(a.url, {
        speakerId: speaker._id,
        question: 'Is substitutability enough?',
        askerUsername: 'ada',
      });
      const response = await refetched;
      expect(response.status).toBe(200);
      expect(((await response.json()) as { _id: string }[]).map((q) => q._id)).toEqual([asked._id]);
      expect(knownWhenSent).toEqual([undefined]);
    } finally {
      socket.disconnect();
    }
  });
});
