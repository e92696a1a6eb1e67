import type { Server as HttpServer } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { Server } from 'socket.io';
import {
  type ClientToServerEvents,
  MAX_WATCHED_ROOMS,
  type ServerToClientEvents,
  type WatchAck,
  moderationRoom,
  roomFor,
  watchRequestSchema,
} from '../../shared/events.ts';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { Poll } from '../../shared/schemas/poll.ts';
import { type Question, publicQuestion } from '../../shared/schemas/question.ts';
import { type DomainEvent, audienceOf } from '../events/domain-events.ts';
import type { EventSubscriber } from '../events/events.ts';
import { BASELINE_SECURITY_HEADERS } from '../http/transport/security-headers.ts';
import { ReactionSums } from './reaction-sums.ts';

/** The events every client gets. */
type EveryoneEvent =
  | 'memoryCreated'
  | 'memoryUpdated'
  | 'memoryDeleted'
  | 'speakerCreated'
  | 'speakerDeleted'
  | 'settingsUpdated'
  | 'scheduleUpdated'
  | 'dataPurged'
  | 'announcement';

/** An event for every client, with its payload. */
type ForEveryone = {
  [E in EveryoneEvent]: { event: E; payload: Parameters<ServerToClientEvents[E]>[0] };
}[EveryoneEvent];

type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents>;
type Broadcast = ReturnType<RealtimeServer['to']>;

function emit<E extends EveryoneEvent>(
  to: Broadcast,
  message: { event: E; payload: Parameters<ServerToClientEvents[E]>[0] },
): void {
  // The payload is the event's one argument; TypeScript does not see that for every E at once.
  to.emit(message.event, ...([message.payload] as Parameters<ServerToClientEvents[E]>));
}

/** Every socket joins one of these rooms (decision 092). */
const EVERYONE_SLICES = 64;
const everyoneSlice = (k: number) => `everyone:${k}`;
const isEveryoneSlice = (room: string) => room.startsWith('everyone:');
/** Between two slices of one event: the event reaches everybody in 64 × 10 ms. */
const SLICE_GAP_MS = 10;

/**
 * Sends events for every client of this instance a slice of its sockets at a time. Writing one
 * event to 10,000 sockets at once takes the event loop for about 150 ms, which every request
 * arriving meanwhile would wait out, and 10,000 phones would then fetch the new picture in the
 * same moment. Each tick sends every event in flight to its next slice, so events keep their
 * order on every socket and a burst of events does not queue behind itself.
 */
function everyoneInSlices(io: RealtimeServer) {
  /** Oldest first; an older event is always further along. */
  const sending: { message: ForEveryone; slice: number; except: string[] }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    for (const event of sending) {
      emit(io.local.to(everyoneSlice(event.slice++)).except(event.except), event.message);
    }
    while (sending[0] && sending[0].slice === EVERYONE_SLICES) sending.shift();
    timer = sending.length > 0 ? setTimeout(tick, SLICE_GAP_MS) : undefined;
  };
  let joined = 0;
  return {
    join: (socket: { join(room: string): unknown }) =>
      void socket.join(everyoneSlice(joined++ % EVERYONE_SLICES)),
    /** Sends `message` to every socket but those in the rooms `except`. */
    deliver(message: ForEveryone, except: string[] = []) {
      sending.push({ message, slice: 0, except });
      timer ??= setTimeout(tick, 0);
    },
    stop() {
      sending.length = 0;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * This instance's sockets: one subscriber of the domain events (this instance's and every other
 * one's), which it sends to the rooms that may see them. Services never call it.
 */
export interface Realtime extends EventSubscriber {
  io: RealtimeServer;
  close(): Promise<void>;
}

/** The window within which vote changes of one question are sent once (decision 113). */
export const VOTE_COALESCE_MS = 100;

/** Names the moderation room a token may join (the admin's, or a speaker's own), or null. */
export type ModerationRoomOf = (token: string) => Promise<string | null>;

/** A poll as the sockets send it, read from the database when it is sent (decision 220). */
export interface LivePoll {
  /** Orders the states of one poll: an older read is never sent after a newer one. */
  revision: number;
  sessionId: string | null;
  /** The speakers who run it: their moderation rooms get `owner`. */
  speakerIds: string[];
  /** Its owners' view (every result, a quiz's right options). */
  owner: Poll;
  /** What everybody else sees; null for a draft. */
  shown: Poll | null;
}

/** Reads a poll as it is now for the sockets; undefined once it is gone. */
export type ReadLivePoll = (pollId: string) => Promise<LivePoll | undefined>;

/**
 * The least time between two `pollUpdated` of one poll (at most 4 a second, however many
 * answer): a change is sent at once when none went out in the last 250 ms, else at the end of
 * that window, with the poll as it is then (decision 220).
 */
export const POLL_UPDATE_INTERVAL_MS = 250;

/**
 * Reads of a poll that may fail in a row before its pace gives the change up (the next change,
 * or the screens' reads of the list, carry the poll then); each waits for its window.
 */
const POLL_READ_ATTEMPTS = 4;

/**
 * The socket writes a second one poll's updates may take on an instance (decision 251): a poll
 * watched by up to 2,500 of its sockets is sent 4 times a second; past that, its window grows so
 * that its writes stay within this (10,000 watchers: once a second). Writing to a socket costs
 * tens of microseconds, so 10,000 sockets 4 times a second took more than one core.
 */
export const POLL_WRITES_PER_SECOND = 10_000;

/** The window between two `pollUpdated` of a poll whose last one reached `audience` sockets. */
export const pollWindowFor = (audience: number): number =>
  Math.max(POLL_UPDATE_INTERVAL_MS, Math.ceil((audience * 1000) / POLL_WRITES_PER_SECOND));

/** Sockets a poll's update is written to per turn of the event loop. */
const POLL_SOCKETS_PER_TURN = 250;

/** The pace of one poll's `pollUpdated` on this instance. */
interface PollPace {
  /** The window since the last read began; the next read waits for its end. */
  timer: NodeJS.Timeout | undefined;
  /** A change arrived since the last read began (or that read failed): read again. */
  dirty: boolean;
  /** A read is under way: one at a time, and the pace stays until it has sent its poll. */
  reading: boolean;
  /** The revision last sent: an older read is dropped. */
  sent: number;
  /** Reads that failed in a row. */
  failures: number;
  /** The sockets of this instance the last update reached: its next window grows with them. */
  audience: number;
}

/**
 * Answers a `watch` or `unwatch` once the socket is in (or out of) the room, so the client knows
 * from when the room's events reach it; `false` for a request that did not parse, a token that
 * does not check out, or a socket that watches `MAX_WATCHED_ROOMS` already. A client that sent no
 * callback is answered nothing.
 */
function acknowledge(ack: unknown, done: boolean): void {
  if (typeof ack === 'function') (ack as WatchAck)(done);
}

/** The host of an Origin header; undefined for `null` and anything that is not a URL. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * Attaches socket.io (same origin, path /socket.io) to the app's HTTP server. Its sockets are
 * this instance's only: every instance hears every event through the domain events' bus
 * (decision 203) and sends it to its own sockets.
 */
export function createRealtime(
  httpServer: HttpServer,
  log: FastifyBaseLogger,
  moderationRoomOf: ModerationRoomOf = () => Promise.resolve(null),
  readLivePoll: ReadLivePoll = () => Promise.resolve(undefined),
): Realtime {
  const io: RealtimeServer = new Server(httpServer, {
    serveClient: false,
    // Same origin only: no CORS headers are sent, so other sites cannot connect from a browser.
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      const host = request.headers.host;
      callback(null, !origin || !host || originHost(origin) === host);
    },
    maxHttpBufferSize: 16 * 1024,
  });
  // socket.io answers its HTTP requests itself (errors too), outside Fastify's hooks.
  httpServer.prependListener('request', (request, response) => {
    if (!request.url?.startsWith('/socket.io/')) return;
    for (const [name, value] of Object.entries(BASELINE_SECURITY_HEADERS)) {
      response.setHeader(name, value);
    }
  });

  // Each instance paces its own sockets.
  const everyone = everyoneInSlices(io);
  const toEveryone = (message: ForEveryone) => everyone.deliver(message);
  // The moderation room a token may join; a token that does not check out is refused.
  const roomOfToken = (token: string) => moderationRoomOf(token).catch(() => null);
  io.on('connection', (socket) => {
    everyone.join(socket);
    /** The rooms the socket asked to watch: all of its rooms but its own and its slice. */
    const watching = () => {
      let count = 0;
      for (const room of socket.rooms) {
        if (room !== socket.id && !isEveryoneSlice(room)) count += 1;
      }
      return count;
    };
    /** Whether the socket may join `room` now: it is in it already, or has a place left. */
    const mayJoin = (room: string) => socket.rooms.has(room) || watching() < MAX_WATCHED_ROOMS;
    const watch = async (request: unknown): Promise<boolean> => {
      const parsed = watchRequestSchema.safeParse(request);
      if (!parsed.success) return false;
      if (parsed.data.room !== 'moderation') {
        const room = roomFor(parsed.data);
        if (!mayJoin(room)) return false;
        await socket.join(room);
        return true;
      }
      // A full socket's token is not even checked.
      if (watching() >= MAX_WATCHED_ROOMS) return false;
      const { token } = parsed.data;
      const room = await roomOfToken(token);
      // A socket gone meanwhile joins nothing: the adapter would keep it in the room.
      if (room === null || !socket.connected || !mayJoin(room)) return false;
      await socket.join(room);
      if (room === moderationRoom()) return true;
      // A new secret issued while the token was checked has emptied the room before this
      // socket was in it: checked again now that it is, so it does not stay on a stale token.
      if ((await roomOfToken(token)) === room) return true;
      await socket.leave(room);
      return false;
    };
    const unwatch = async (request: unknown): Promise<boolean> => {
      const parsed = watchRequestSchema.safeParse(request);
      if (!parsed.success) return false;
      const room =
        parsed.data.room === 'moderation'
          ? await roomOfToken(parsed.data.token)
          : roomFor(parsed.data);
      if (room === null) return false;
      await socket.leave(room);
      return true;
    };
    // `watch` joins the room a request names, `unwatch` leaves it.
    socket.on('watch', (request: unknown, ack: unknown) => {
      void watch(request).then((done) => acknowledge(ack, done));
    });
    socket.on('unwatch', (request: unknown, ack: unknown) => {
      void unwatch(request).then((done) => acknowledge(ack, done));
    });
    socket.on('error', (error) => log.debug({ err: error }, 'socket error'));
  });

  /**
   * Where a question's events go: its speakers' rooms (its own speaker's and its session's
   * speakers', `speakerIds`, decision 223), its session's room, and every question's.
   */
  type Audience = readonly string[];
  const publicRooms = (question: Pick<Question, 'sessionId'>, speakerIds: Audience) => [
    ...speakerIds.map((speakerId) => roomFor({ room: 'speaker', speakerId })),
    ...(question.sessionId ? [roomFor({ room: 'session', sessionId: question.sessionId })] : []),
    roomFor({ room: 'questions' }),
  ];
  const moderationRooms = (speakerIds: Audience) => [
    moderationRoom(),
    ...speakerIds.map((speakerId) => moderationRoom(speakerId)),
  ];
  /**
   * Sends a question to `rooms`: as it is to the admin's moderation room, without an anonymous
   * asker's name to every other (decision 233): one emit when there is no name to leave out.
   */
  const sendQuestion = (
    rooms: string[],
    question: Question,
    send: (to: ReturnType<typeof io.to>, question: Question) => void,
  ) => {
    const shown = publicQuestion(question);
    if (shown === question) {
      send(io.to(rooms), question);
      return;
    }
    const admin = moderationRoom();
    if (rooms.includes(admin)) send(io.to(admin), question);
    const others = rooms.filter((room) => room !== admin);
    if (others.length > 0) send(io.to(others).except(admin), shown);
  };
  const emitUpdated = (to: ReturnType<typeof io.to>, question: Question) =>
    to.emit('questionUpdated', { question });
  const sendUpdated = (question: Question, speakerIds: Audience) => {
    const moderators = moderationRooms(speakerIds);
    if (question.status === 'published') {
      sendQuestion([...publicRooms(question, speakerIds), ...moderators], question, emitUpdated);
      return;
    }
    // No longer public: gone from the public screens, still there for its moderators.
    io.to(publicRooms(question, speakerIds))
      .except(moderators)
      .emit('questionDeleted', { id: question._id, speakerId: question.speakerId });
    sendQuestion(moderators, question, emitUpdated);
  };
  interface Change {
    question: Question;
    revision: number;
    speakerIds: Audience;
  }
  // Vote changes waiting for their window: the latest state of each question.
  const pending = new Map<string, Change>();
  // A window's changes being sent, one question per turn of the event loop, so that writing
  // them to a room of thousands of sockets does not hold up the requests arriving meanwhile.
  let sending = new Map<string, Change>();
  let flushTimer: NodeJS.Timeout | undefined;
  const sendNext = (ids: string[], at: number) => {
    const id = ids[at];
    if (id === undefined) return;
    const next = sending.get(id);
    sending.delete(id);
    if (next) sendUpdated(next.question, next.speakerIds);
    setImmediate(sendNext, ids, at + 1);
  };
  const flush = () => {
    flushTimer = undefined;
    sending = new Map([...sending, ...pending]);
    pending.clear();
    sendNext([...sending.keys()], 0);
  };

  // Public events carry only published memories: a pending one goes to the admin alone.
  const sendMemory = (event: 'memoryCreated' | 'memoryUpdated', memory: Memory) => {
    if (memory.status === 'published') toEveryone({ event, payload: { memory } });
    else io.to(moderationRoom()).emit(event, { memory });
  };

  /** A new question: to the public rooms when published, to the moderation rooms always. */
  const newQuestion = (question: Question, speakerIds: Audience) => {
    const rooms = moderationRooms(speakerIds);
    if (question.status === 'published') rooms.push(...publicRooms(question, speakerIds));
    sendQuestion(rooms, question, (to, shown) =>
      to.emit('newQuestion', { speakerId: shown.speakerId, question: shown }),
    );
  };
  /**
   * A question changed: `questionUpdated` to whoever may see it now, `questionDeleted` to the
   * public rooms when it stopped being published. With `coalesce` (votes), the changes of one
   * question within a short window go out once, carrying the latest state (`revision`).
   */
  const questionUpdated = (change: Change, coalesce: boolean) => {
    const { question, revision } = change;
    const waiting = pending.get(question._id) ?? sending.get(question._id);
    if (waiting && waiting.revision > revision) return;
    // A window being sent carries this state now, not an older one.
    if (sending.has(question._id)) sending.set(question._id, change);
    if (coalesce) {
      pending.set(question._id, change);
      flushTimer ??= setTimeout(flush, VOTE_COALESCE_MS);
      return;
    }
    pending.delete(question._id);
    sendUpdated(question, change.speakerIds);
  };
  const questionDeleted = (
    {
      _id,
      speakerId,
      sessionId,
    }: Pick<Question, '_id' | 'speakerId'> & {
      sessionId?: string | null;
    },
    speakerIds: Audience,
  ) => {
    pending.delete(_id);
    sending.delete(_id);
    const rooms = [
      ...publicRooms({ sessionId: sessionId ?? null }, speakerIds),
      ...moderationRooms(speakerIds),
    ];
    io.to(rooms).emit('questionDeleted', { id: _id, speakerId });
  };
  /**
   * The speaker's tokens stopped being valid (a new secret, or the speaker deleted): every
   * socket here leaves the speaker's moderation room, which only those tokens opened; they must
   * watch again with a valid token. Every other instance does the same with the same event.
   */
  const endModeration = (speakerId: string) =>
    io.in(moderationRoom(speakerId)).socketsLeave(moderationRoom(speakerId));

  /** The rooms of a poll's owners: the admin's, and its session's speakers'. */
  const pollOwnerRooms = (speakerIds: readonly string[]) => [
    moderationRoom(),
    ...speakerIds.map((speakerId) => moderationRoom(speakerId)),
  ];
  /**
   * The sockets of a session's watchers (every socket for the whole event's) but those in the
   * rooms `except` (a poll's owners, who get their own view). A poll's result or a session's
   * reactions go to them a few hundred at a time, one batch per turn of the event loop: writing
   * to 5,000 sockets at once holds the loop for about 100 ms, which every answer arriving
   * meanwhile would wait out (decisions 220, 237).
   */
  const watchersOf = (sessionId: string | null, owners: readonly string[]): string[] => {
    const { rooms } = io.of('/').adapter;
    const members =
      sessionId === null
        ? io.of('/').sockets.keys()
        : (rooms.get(roomFor({ room: 'session', sessionId })) ?? new Set<string>()).values();
    const skip = new Set(owners.flatMap((room) => [...(rooms.get(room) ?? [])]));
    return [...members].filter((id) => !skip.has(id));
  };
  const inTurns = (ids: readonly string[], send: (batch: string[]) => void, from = 0): void => {
    const batch = ids.slice(from, from + POLL_SOCKETS_PER_TURN);
    if (batch.length > 0) send(batch);
    if (from + POLL_SOCKETS_PER_TURN < ids.length) {
      setImmediate(inTurns, ids, send, from + POLL_SOCKETS_PER_TURN);
    }
  };
  /** Sends a poll to its watchers and owners; answers how many of this instance's it reached. */
  const sendPoll = (live: LivePoll): number => {
    const owners = pollOwnerRooms(live.speakerIds);
    const { shown } = live;
    let reached = 0;
    if (shown) {
      const watchers = watchersOf(live.sessionId, owners);
      reached = watchers.length;
      inTurns(watchers, (batch) => io.local.to(batch).emit('pollUpdated', { poll: shown }));
    }
    io.to(owners).emit('pollUpdated', { poll: live.owner });
    return reached;
  };
  const pollPaces = new Map<string, PollPace>();
  /**
   * The end of a window or of a read: the next read once both are over and a change waits,
   * else the pace ends. A read slower than the window keeps the pace until it is done, so what
   * it read is sent and a change that came meanwhile is read after it.
   */
  const nextPollTurn = (pollId: string, pace: PollPace) => {
    if (pollPaces.get(pollId) !== pace || pace.timer || pace.reading) return;
    if (pace.dirty) void readAndSendPoll(pollId, pace);
    else pollPaces.delete(pollId);
  };
  /** Reads the poll and sends it, and keeps the next change of it for the end of the window. */
  const readAndSendPoll = async (pollId: string, pace: PollPace) => {
    pace.dirty = false;
    pace.reading = true;
    pace.timer = setTimeout(() => {
      pace.timer = undefined;
      nextPollTurn(pollId, pace);
    }, pollWindowFor(pace.audience));
    try {
      const live = await readLivePoll(pollId);
      pace.failures = 0;
      if (live && pollPaces.get(pollId) === pace && live.revision >= pace.sent) {
        pace.sent = live.revision;
        pace.audience = sendPoll(live);
      }
    } catch (error) {
      log.warn({ err: error, pollId }, 'a poll could not be read for its watchers');
      // The change it was to carry is read again at the end of the window (a few times; then
      // the next change, or the screens' reads of the list, carry the poll instead).
      pace.failures += 1;
      if (pace.failures < POLL_READ_ATTEMPTS) pace.dirty = true;
    } finally {
      pace.reading = false;
      nextPollTurn(pollId, pace);
    }
  };
  const pollChanged = (pollId: string) => {
    const pace = pollPaces.get(pollId);
    if (pace) {
      pace.dirty = true;
      return;
    }
    const fresh: PollPace = {
      timer: undefined,
      dirty: true,
      reading: false,
      sent: -1,
      failures: 0,
      audience: 0,
    };
    pollPaces.set(pollId, fresh);
    void readAndSendPoll(pollId, fresh);
  };
  const pollDeleted = (event: Extract<DomainEvent, { type: 'pollDeleted' }>) => {
    clearTimeout(pollPaces.get(event.pollId)?.timer);
    pollPaces.delete(event.pollId);
    const payload = { id: event.pollId, sessionId: event.sessionId };
    const owners = pollOwnerRooms(event.speakerIds);
    inTurns(watchersOf(event.sessionId, owners), (batch) =>
      io.local.to(batch).emit('pollDeleted', payload),
    );
    io.to(owners).emit('pollDeleted', payload);
  };

  // Every instance hears every instance's sums of its taps (its own too), so each sums the whole
  // cluster's again and sends its sockets at most 4 sums a second per session (decisions 237
  // and 245).
  const reactionSums = new ReactionSums((sessionId, counts) =>
    inTurns(watchersOf(sessionId, []), (batch) =>
      io.local.to(batch).emit('reactions', { sessionId, counts }),
    ),
  );

  const on = (event: DomainEvent) => {
    switch (event.type) {
      case 'memoryCreated':
      case 'memoryUpdated':
        sendMemory(event.type, event.memory);
        return;
      case 'memoryDeleted':
        toEveryone({ event: 'memoryDeleted', payload: { id: event.id } });
        return;
      case 'memoryReported':
        // Hidden by reports: gone from every public screen, as one awaiting approval, and in
        // the admin's pending list (decision 216).
        if (event.hidden) {
          everyone.deliver({ event: 'memoryDeleted', payload: { id: event.memoryId } }, [
            moderationRoom(),
          ]);
          io.to(moderationRoom()).emit('memoryUpdated', { memory: event.hidden });
        }
        io.to(moderationRoom()).emit('reportsChanged', { memoryId: event.memoryId });
        return;
      case 'reportsDismissed':
      case 'reportWithdrawn':
        io.to(moderationRoom()).emit('reportsChanged', { memoryId: event.memoryId });
        return;
      case 'questionCreated':
        newQuestion(event.question, audienceOf(event));
        return;
      case 'questionVoted':
      case 'questionUpdated': {
        const { question, revision } = event;
        const change = { question, revision, speakerIds: audienceOf(event) };
        questionUpdated(change, event.type === 'questionVoted');
        return;
      }
      case 'questionDeleted':
        questionDeleted(event.question, audienceOf(event));
        return;
      case 'speakerCreated':
        toEveryone({ event: 'speakerCreated', payload: { speaker: event.speaker } });
        return;
      case 'speakerDeleted':
        toEveryone({ event: 'speakerDeleted', payload: { id: event.speakerId } });
        endModeration(event.speakerId);
        return;
      case 'speakerSecretRenewed':
        endModeration(event.speakerId);
        return;
      case 'speakerSecretsRenewed':
        for (const speakerId of event.speakerIds) endModeration(speakerId);
        return;
      case 'settingsUpdated':
        // Every open page takes the new name, colour, logo and the wall's pace at once.
        toEveryone({ event: 'settingsUpdated', payload: { settings: event.settings } });
        return;
      case 'scheduleChanged':
        // Every open programme reads GET /api/schedule again, a slice of sockets at a time.
        toEveryone({ event: 'scheduleUpdated', payload: { version: event.version } });
        return;
      case 'pollChanged':
      case 'pollVoted':
        pollChanged(event.pollId);
        return;
      case 'pollDeleted':
        pollDeleted(event);
        return;
      case 'reacted':
        reactionSums.addAll(event.sessionId, event.counts);
        return;
      case 'eventDataPurged':
        // One event however much went: open screens read their lists again.
        toEveryone({ event: 'dataPurged', payload: {} });
        return;
      case 'storedVideosCleaned':
        // Screens see the cleaned files at their next read of the gallery.
        return;
      case 'attendeeErasure':
        // What was erased went with its own events (memoryDeleted, questionDeleted, votes).
        return;
      case 'announcementCreated': {
        const payload = { announcement: event.announcement };
        if (event.watchedSessions === null) toEveryone({ event: 'announcement', payload });
        else if (event.watchedSessions.length > 0) {
          io.to(
            event.watchedSessions.map((sessionId) => roomFor({ room: 'session', sessionId })),
          ).emit('announcement', payload);
        }
        return;
      }
      default:
        // An event of a newer instance (a rolling deploy) that this one does not know.
        event satisfies never;
    }
  };

  return {
    io,
    on,
    close: () =>
      new Promise<void>((resolve) => {
        everyone.stop();
        reactionSums.stop();
        clearTimeout(flushTimer);
        for (const pace of pollPaces.values()) clearTimeout(pace.timer);
        pollPaces.clear();
        pending.clear();
        sending.clear();
        // Disconnect sockets; the HTTP server itself is closed by Fastify.
        io.disconnectSockets(true);
        void io.close(() => resolve());
      }),
  };
}
