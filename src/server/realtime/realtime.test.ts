import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClientToServerEvents,
  MAX_WATCHED_ROOMS,
  type ServerToClientEvents,
} from '../../shared/events.ts';
import type { Question } from '../../shared/schemas/question.ts';
import { newId } from '../lib/ids.ts';
import { adminToken } from '../../../tests/support/speakers.ts';
import { type TestApp, startTestApp, testDatabases } from '../../../tests/support/test-app.ts';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const question = (speakerId: string, text: string): Question => ({
  _id: newId(),
  speakerId,
  speakerName: 'Ada',
  askerUsername: 'grace',
  question: text,
  createdAt: new Date().toISOString(),
  votes: 0,
  answered: false,
  pinned: false,
  status: 'published',
  sessionId: null,
  anonymous: false,
  answer: null,
  answeredAt: null,
});

async function connect(
  url: string,
  extraHeaders: Record<string, string> = {},
): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/** The apps and sockets a test opens, closed after it: the sockets first, then the apps. */
function closedAfterEach() {
  const apps: TestApp[] = [];
  const sockets: ClientSocket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    for (const app of apps.splice(0).reverse()) await app.close();
  });
  return { apps, sockets };
}

/** Resolves with the events received within `ms`, or as soon as `count` of them have come. */
function collect<E extends keyof ServerToClientEvents>(
  socket: ClientSocket,
  event: E,
  ms: number,
  count = Infinity,
) {
  type Payload = Parameters<ServerToClientEvents[E]>[0];
  const received: Payload[] = [];
  const name: string = event;
  return new Promise<Payload[]>((resolve) => {
    const timer = setTimeout(() => resolve(received), ms);
    (socket as Socket).on(name, (...args: unknown[]) => {
      received.push(args[0] as Payload);
      if (received.length < count) return;
      clearTimeout(timer);
      resolve(received);
    });
  });
}

describe.each(testDatabases)('realtime on %s', (database) => {
  const { apps, sockets } = closedAfterEach();

  it("sends a speaker's questions to that speaker's watchers and to all-question watchers only", async () => {
    const t = await startTestApp({ database });
    apps.push(t);
    const [speakerA, speakerB] = [newId(), newId()];
    const watcherA = await connect(t.url);
    const watcherAll = await connect(t.url);
    const bystander = await connect(t.url);
    sockets.push(watcherA, watcherAll, bystander);
    // Each watch is acknowledged once the socket is in the room.
    expect(
      await Promise.all([
        watcherA.emitWithAck('watch', { room: 'speaker', speakerId: speakerA }),
        watcherAll.emitWithAck('watch', { room: 'questions' }),
      ]),
    ).toEqual([true, true]);

    const gotA = collect(watcherA, 'newQuestion', 400);
    const gotAll = collect(watcherAll, 'newQuestion', 400);
    const gotNone = collect(bystander, 'newQuestion', 400);
    await t.app.deps.events.publish({
      type: 'questionCreated',
      question: question(speakerA, 'for A'),
    });
    await t.app.deps.events.publish({
      type: 'questionCreated',
      question: question(speakerB, 'for B'),
    });

    expect((await gotA).map((p) => p.question.question)).toEqual(['for A']);
    expect((await gotAll).map((p) => p.question.question).sort()).toEqual(['for A', 'for B']);
    expect(await gotNone).toEqual([]);
  });

  it('ignores malformed watch requests and stops after unwatch', async () => {
    const t = await startTestApp({ database });
    apps.push(t);
    const speakerId = newId();
    const socket = await connect(t.url);
    sockets.push(socket);
    const untyped = socket as Socket;
    // A request that does not parse is answered `false`; one without a callback, nothing.
    expect(await untyped.emitWithAck('watch', { room: 'speaker', speakerId: '../../etc' })).toBe(
      false,
    );
    expect(await untyped.emitWithAck('watch', 'everything')).toBe(false);
    expect(await untyped.emitWithAck('unwatch', 42)).toBe(false);
    const other = newId();
    untyped.emit('watch', { room: 'speaker', speakerId: other });
    expect(await socket.emitWithAck('watch', { room: 'speaker', speakerId })).toBe(true);
    const members = async (room: string) =>
      (await t.app.deps.realtime.io.in(room).fetchSockets()).map((member) => member.id);
    expect(await members(`speaker:${speakerId}`)).toEqual([socket.id]);
    // The server reads one socket's packets in order: the watch sent without a callback is done.
    expect(await members(`speaker:${other}`)).toEqual([socket.id]);
    expect(await socket.emitWithAck('unwatch', { room: 'speaker', speakerId })).toBe(true);
    expect(await members(`speaker:${speakerId}`)).toEqual([]);
    const got = collect(socket, 'newQuestion', 300);
    await t.app.deps.events.publish({
      type: 'questionCreated',
      question: question(speakerId, 'after unwatch'),
    });
    expect(await got).toEqual([]);
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
  });

  it(`lets one socket watch ${MAX_WATCHED_ROOMS} rooms at most, refusing more with false; an unwatch frees one`, async () => {
    const t = await startTestApp({ database, env: { ADMIN_PASSWORD: 'rooms-admin-password' } });
    apps.push(t);
    const socket = await connect(t.url);
    sockets.push(socket);
    const watch = (speakerId: string) =>
      socket.emitWithAck('watch', { room: 'speaker', speakerId });
    const speakers = Array.from({ length: MAX_WATCHED_ROOMS }, () => newId());
    for (const speakerId of speakers) expect(await watch(speakerId)).toBe(true);
    // A room it watches already takes no new place.
    expect(await watch(speakers[0] ?? '')).toBe(true);

    const extra = newId();
    expect(await watch(extra)).toBe(false);
    expect(await socket.emitWithAck('watch', { room: 'questions' })).toBe(false);
    const admin = await adminToken(t.url, 'rooms-admin-password');
    expect(await socket.emitWithAck('watch', { room: 'moderation', token: admin })).toBe(false);
    // However many it asks for, at once: every one refused, and nothing kept for them.
    const flood = await Promise.all(Array.from({ length: 500 }, () => watch(newId())));
    expect(flood.filter(Boolean)).toEqual([]);
    const rooms = () => t.app.deps.realtime.io.sockets.sockets.get(socket.id ?? '')?.rooms;
    // The rooms it watches, its own room and its slice of everybody.
    expect(rooms()?.size).toBe(MAX_WATCHED_ROOMS + 2);
    expect(rooms()?.has(`speaker:${extra}`)).toBe(false);
    const refused = collect(socket, 'newQuestion', 300);
    await t.app.deps.events.publish({
      type: 'questionCreated',
      question: question(extra, 'to a room it was refused'),
    });
    expect(await refused).toEqual([]);

    expect(
      await socket.emitWithAck('unwatch', { room: 'speaker', speakerId: speakers[0] ?? '' }),
    ).toBe(true);
    expect(await watch(extra)).toBe(true);
    expect(await watch(newId())).toBe(false);
    const admitted = collect(socket, 'newQuestion', 5_000, 1);
    await t.app.deps.events.publish({
      type: 'questionCreated',
      question: question(extra, 'to a room it watches now'),
    });
    expect((await admitted).map((event) => event.question.question)).toEqual([
      'to a room it watches now',
    ]);
  });

  it('sends events for everybody to every client once, in the order they were sent', async () => {
    const t = await startTestApp({ database });
    apps.push(t);
    // More clients than the server's slices of everybody, so that every slice holds some.
    const clients = await Promise.all(Array.from({ length: 40 }, () => connect(t.url)));
    sockets.push(...clients);
    // Waits for all three (a busy machine can be slow), then a moment more for any duplicate.
    const received = clients.map((client) => collect(client, 'memoryDeleted', 10_000, 3));
    const ids = [newId(), newId(), newId()];
    for (const id of ids) await t.app.deps.events.publish({ type: 'memoryDeleted', id });

    const events = await Promise.all(received);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const got of events) expect(got.map((p) => p.id)).toEqual(ids);
  });

  it('refuses socket connections from another origin', async () => {
    const t = await startTestApp({ database });
    apps.push(t);
    await expect(connect(t.url, { origin: 'https://evil.example' })).rejects.toThrow();
    const same = await connect(t.url, { origin: t.url });
    sockets.push(same);
    expect(same.connected).toBe(true);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('realtime across instances on PostgreSQL', () => {
  const { apps, sockets } = closedAfterEach();

  it('an event emitted on one instance reaches clients of another', async () => {
    const first = await startTestApp({ database: 'postgres' });
    apps.push(first);
    const second = await startTestApp({
      database: 'postgres',
      env: { DATABASE_SCHEMA: first.config.databaseSchema ?? '' },
    });
    apps.push(second);
    const speakerId = newId();
    const onSecond = await connect(second.url);
    const othersOnSecond = await Promise.all(Array.from({ length: 20 }, () => connect(second.url)));
    sockets.push(onSecond, ...othersOnSecond);
    await onSecond.emitWithAck('watch', { room: 'speaker', speakerId });

    const questions = collect(onSecond, 'newQuestion', 1000);
    const deletions = collect(onSecond, 'memoryDeleted', 1000);
    const othersDeletions = othersOnSecond.map((other) => collect(other, 'memoryDeleted', 1000));
    await first.app.deps.events.publish({
      type: 'questionCreated',
      question: question(speakerId, 'from the first instance'),
    });
    const deletedId = newId();
    await first.app.deps.events.publish({ type: 'memoryDeleted', id: deletedId });

    expect((await questions).map((p) => p.question.question)).toEqual(['from the first instance']);
    expect(await deletions).toEqual([{ id: deletedId }]);
    for (const got of othersDeletions) expect(await got).toEqual([{ id: deletedId }]);
  });
});
