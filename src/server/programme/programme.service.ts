import type {
  Room,
  RoomCreate,
  RoomUpdate,
  Schedule,
  Session,
  SessionCreate,
  SessionUpdate,
  SessionWithSpeakers,
} from '../../shared/schemas/programme.ts';
import { instantOf, zonedFormatter } from '../../shared/zoned-time.ts';
import type { Database } from '../db/database.ts';
import type { Executor } from '../db/queries.ts';
import type { AppDeps } from '../deps.ts';
import { conflict, invalid, notFound } from '../http/errors.ts';
import { WHOLE_LIST } from '../lists/list-cache.ts';
import type { ListView } from '../lists/list-route.ts';
import { storedTimezone } from '../settings/settings.service.ts';
import { speakersByIds } from '../speakers/speaker.repository.ts';
import {
  type StoredSession,
  bumpScheduleVersion,
  currentSession,
  deleteRoom,
  deleteSession,
  findRoom,
  findSession,
  insertRoom,
  insertSession,
  listRooms,
  listSessions,
  nextRoomPosition,
  pollCountOfSession,
  readScheduleVersion,
  sessionCountInRoom,
  sessionSpeakerIds as readSessionSpeakerIds,
  sessionSpeakerPlaces,
  sessionsOfSpeaker as readSessionsOfSpeaker,
  setSessionSpeakers,
  unknownSpeakerIds,
  updateRoom,
  updateSession,
} from './programme.repository.ts';
import type { Transaction } from 'kysely';

/*
 * The programme's rules (decision 210). What other parts call:
 *
 *   scheduleVersion(deps)                         the version, a number that only grows
 *   getSchedule(deps)                             { timezone, version, rooms, sessions }
 *   getSession(deps, id)                          the Session with its speakers, or a 404
 *   sessionsOfSpeaker(deps, speakerId)            Session[] by start
 *   currentSessionOf(deps, { roomId?, speakerId? }, now)   the Session running at `now`, or null
 *   sessionSpeakerIds(deps, sessionId)            string[] in order
 *   changeSchedule(deps, (trx) => ...)            runs repository writes in ONE transaction, moves
 *                                                 the version, publishes `scheduleChanged` once
 *
 * Sessions come out with their times in the event's time zone (`setting timezone`), each with
 * that zone's offset at that instant.
 */

type ReadDeps = Pick<AppDeps, 'db'>;
type WriteDeps = Pick<AppDeps, 'db' | 'events' | 'clock'>;

/** Turns stored sessions (UTC instants) into the API's, in the event's time zone. */
export function sessionPresenter(timezone: string): (stored: StoredSession) => Session {
  const zoned = zonedFormatter(timezone);
  return (stored) => ({
    _id: stored.id,
    guid: stored.guid,
    title: stored.title,
    abstract: stored.abstract,
    roomId: stored.roomId,
    startsAt: zoned(stored.startsAt),
    endsAt: zoned(stored.endsAt),
    speakerIds: stored.speakerIds,
    track: stored.track,
    cancelled: stored.cancelled,
  });
}

async function presenter(deps: ReadDeps): Promise<(stored: StoredSession) => Session> {
  return sessionPresenter(await storedTimezone(deps.db));
}

/** The schedule's version: a number that only grows, the same on every instance. */
export function scheduleVersion(deps: ReadDeps): Promise<number> {
  return readScheduleVersion(deps.db);
}

/** The whole programme as GET /api/schedule answers it. */
export async function getSchedule(deps: ReadDeps): Promise<Schedule> {
  const { db } = deps;
  const [timezone, version, rooms, sessions] = await Promise.all([
    storedTimezone(db),
    readScheduleVersion(db),
    listRooms(db),
    listSessions(db),
  ]);
  return { timezone, version, rooms, sessions: sessions.map(sessionPresenter(timezone)) };
}

/**
 * What decides the schedule's cached answer (the list cache's version of it): the version, the
 * time zone and the speaker places (a speaker deleted takes theirs with them).
 */
export async function scheduleListVersion(
  deps: ReadDeps,
): Promise<{ newestId: string; count: number; revision: number }> {
  const [version, timezone, places] = await Promise.all([
    readScheduleVersion(deps.db),
    storedTimezone(deps.db),
    sessionSpeakerPlaces(deps.db),
  ]);
  return { newestId: timezone, count: places, revision: version };
}

/** GET /api/schedule as one polled list: one answer per version, ETag and 304. */
export const scheduleView = (deps: ReadDeps): ListView => ({
  topic: 'schedule',
  scope: WHOLE_LIST,
  key: 'schedule',
  rows: () => getSchedule(deps),
});

/** A session with its speakers (in order), or a 404. */
export async function getSession(deps: ReadDeps, id: string): Promise<SessionWithSpeakers> {
  const stored = await findSession(deps.db, id.toLowerCase());
  if (!stored) throw notFound('session');
  const [present, speakers] = await Promise.all([
    presenter(deps),
    speakersByIds(deps.db, stored.speakerIds),
  ]);
  return { ...present(stored), speakers };
}

/** The sessions a speaker is on, by start (cancelled ones too). */
export async function sessionsOfSpeaker(deps: ReadDeps, speakerId: string): Promise<Session[]> {
  const [present, sessions] = await Promise.all([
    presenter(deps),
    readSessionsOfSpeaker(deps.db, speakerId.toLowerCase()),
  ]);
  return sessions.map(present);
}

/**
 * The session running at `now` by the clock (not cancelled, startsAt <= now < endsAt) in a
 * room and/or with a speaker; null when none is.
 */
export async function currentSessionOf(
  deps: ReadDeps,
  where: { roomId?: string | undefined; speakerId?: string | undefined },
  now: Date,
): Promise<Session | null> {
  const stored = await currentSession(
    deps.db,
    { roomId: where.roomId?.toLowerCase(), speakerId: where.speakerId?.toLowerCase() },
    now.toISOString(),
  );
  return stored ? (await presenter(deps))(stored) : null;
}

/** A session's speaker ids, in order (none for an unknown session). */
export function sessionSpeakerIds(deps: ReadDeps, sessionId: string): Promise<string[]> {
  return readSessionSpeakerIds(deps.db, sessionId.toLowerCase());
}

/**
 * Changes the programme: `work` runs its repository calls on one transaction, the schedule's
 * version moves on in it, and once it committed `scheduleChanged` is published, once. The one
 * way every change of the programme is made (the admin's writes, an import).
 */
export async function changeSchedule<T>(
  deps: WriteDeps,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const { result, version } = await deps.db.transaction().execute(async (trx) => {
    const result = await work(trx);
    return { result, version: await bumpScheduleVersion(trx) };
  });
  await deps.events.publish({ type: 'scheduleChanged', version });
  return result;
}

// ---- the admin's writes ---------------------------------------------------------------------

export function createRoom(deps: WriteDeps, input: RoomCreate): Promise<Room> {
  return changeSchedule(deps, async (trx) =>
    insertRoom(trx, {
      name: input.name,
      position: input.position ?? (await nextRoomPosition(trx)),
      createdAt: deps.clock.now().toISOString(),
    }),
  );
}

export async function changeRoom(deps: WriteDeps, id: string, input: RoomUpdate): Promise<Room> {
  return changeSchedule(deps, async (trx) => {
    const room = await updateRoom(trx, id.toLowerCase(), input);
    if (!room) throw notFound('room');
    return room;
  });
}

/** Deletes a room without sessions; one with sessions is a 409 naming how many. */
export async function removeRoom(deps: WriteDeps, id: string): Promise<Room> {
  return changeSchedule(deps, async (trx) => {
    const room = await findRoom(trx, id.toLowerCase());
    if (!room) throw notFound('room');
    const sessions = await sessionCountInRoom(trx, room._id);
    if (sessions > 0) throw conflict('roomHasSessions', sessions);
    await deleteRoom(trx, room._id);
    return room;
  });
}

/** The UTC instant of a time the schema checked (ISO 8601 with an offset). */
const utc = (text: string): string => new Date(instantOf(text) ?? Number.NaN).toISOString();

/** Refuses a room or speakers that do not exist, and a session that ends before it starts. */
async function checkSession(
  trx: Executor,
  session: { roomId: string; startsAt: string; endsAt: string; speakerIds?: string[] },
): Promise<void> {
  if (session.endsAt <= session.startsAt) throw invalid('endsBeforeStarts');
  if (!(await findRoom(trx, session.roomId))) throw invalid('unknownRoom');
  const unknown = await unknownSpeakerIds(trx, session.speakerIds ?? []);
  if (unknown.length > 0) throw invalid('unknownSpeakers', unknown.join(', '));
}

const lower = (ids: string[]) => ids.map((id) => id.toLowerCase());

export async function createSession(deps: WriteDeps, input: SessionCreate): Promise<Session> {
  const now = deps.clock.now().toISOString();
  const fields = {
    title: input.title,
    abstract: input.abstract,
    roomId: input.roomId.toLowerCase(),
    startsAt: utc(input.startsAt),
    endsAt: utc(input.endsAt),
    track: input.track,
    cancelled: input.cancelled,
  };
  const speakerIds = lower(input.speakerIds);
  const stored = await changeSchedule(deps, async (trx) => {
    await checkSession(trx, { ...fields, speakerIds });
    const id = await insertSession(trx, { ...fields, now });
    await setSessionSpeakers(trx, id, speakerIds);
    return findSession(trx, id);
  });
  if (!stored) throw notFound('session');
  return (await presenter(deps))(stored);
}

export async function changeSession(
  deps: WriteDeps,
  id: string,
  input: SessionUpdate,
): Promise<Session> {
  const now = deps.clock.now().toISOString();
  const change = {
    ...(input.title !== undefined && { title: input.title }),
    ...(input.abstract !== undefined && { abstract: input.abstract }),
    ...(input.roomId !== undefined && { roomId: input.roomId.toLowerCase() }),
    ...(input.startsAt !== undefined && { startsAt: utc(input.startsAt) }),
    ...(input.endsAt !== undefined && { endsAt: utc(input.endsAt) }),
    ...(input.track !== undefined && { track: input.track }),
    ...(input.cancelled !== undefined && { cancelled: input.cancelled }),
  };
  const speakerIds = input.speakerIds && lower(input.speakerIds);
  const stored = await changeSchedule(deps, async (trx) => {
    const before = await findSession(trx, id.toLowerCase());
    if (!before) throw notFound('session');
    await checkSession(trx, { ...before, ...change, speakerIds: speakerIds ?? [] });
    await updateSession(trx, before.id, { ...change, now });
    if (speakerIds) await setSessionSpeakers(trx, before.id, speakerIds);
    return findSession(trx, before.id);
  });
  if (!stored) throw notFound('session');
  return (await presenter(deps))(stored);
}

/**
 * Deletes a session; its questions stay, in no session (decision 210). One with polls is a 409
 * naming how many: their results are not lost by accident (decision 228). Answers it as it was.
 */
export async function removeSession(deps: WriteDeps, id: string): Promise<Session> {
  const stored = await changeSchedule(deps, async (trx) => {
    const session = await findSession(trx, id.toLowerCase());
    if (!session) throw notFound('session');
    const polls = await pollCountOfSession(trx, session.id);
    if (polls > 0) throw conflict('sessionHasPolls', polls);
    await deleteSession(trx, session.id);
    return session;
  });
  return (await presenter(deps))(stored);
}
