import type { Room } from '../../shared/schemas/programme.ts';
import type { RoomsTable, SessionsTable } from '../db/database.ts';
import { type Executor, exists, wroteAny } from '../db/queries.ts';
import { newId } from '../lib/ids.ts';

/*
 * The programme's SQL (decision 210): rooms, sessions, their speakers in order, and the
 * schedule's version. Every function takes the database or a transaction first, so a service
 * (or an import) runs several of them in ONE transaction (`changeSchedule` in the service).
 * Times go in and come out as UTC instants, ISO 8601 with `Z` (`Date.toISOString()`): the
 * service shows them in the event's time zone.
 */

/** A session as stored: times as UTC instants (`2026-03-14T08:30:00.000Z`). */
export interface StoredSession {
  id: string;
  guid: string | null;
  title: string;
  abstract: string;
  roomId: string;
  startsAt: string;
  endsAt: string;
  /** In the session's order. */
  speakerIds: string[];
  track: string | null;
  cancelled: boolean;
}

/** What a session write sets; times as UTC instants (`toISOString()`). */
export interface SessionWrite {
  title: string;
  abstract: string;
  roomId: string;
  startsAt: string;
  endsAt: string;
  track: string | null;
  cancelled: boolean;
}

const SCHEDULE = 'schedule';

const toRoom = (row: Pick<RoomsTable, 'id' | 'name' | 'position'>): Room => ({
  _id: row.id,
  name: row.name,
  position: row.position,
});

const toStored = (row: SessionsTable, speakerIds: string[]): StoredSession => ({
  id: row.id,
  guid: row.guid,
  title: row.title,
  abstract: row.abstract,
  roomId: row.room_id,
  startsAt: row.starts_at,
  endsAt: row.ends_at,
  speakerIds,
  track: row.track,
  cancelled: row.cancelled === 1,
});

// ---- the version ----------------------------------------------------------------------------

/** The schedule's version: a number that only grows, stored, the same on every instance. */
export async function readScheduleVersion(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('schedule_state')
    .select('version')
    .where('id', '=', SCHEDULE)
    .executeTakeFirst();
  return row?.version ?? 0;
}

/** Moves the version on by one (inside the transaction that changes the programme); the new one. */
export async function bumpScheduleVersion(db: Executor): Promise<number> {
  await db
    .updateTable('schedule_state')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', SCHEDULE)
    .execute();
  return readScheduleVersion(db);
}

/**
 * What the schedule's answer depends on besides the version: how many speaker places the
 * sessions have (a speaker deleted elsewhere takes theirs away without moving the version).
 */
export async function sessionSpeakerPlaces(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('session_speakers')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

// ---- rooms ----------------------------------------------------------------------------------

/** Every room, by position, then by creation. */
export async function listRooms(db: Executor): Promise<Room[]> {
  const rows = await db
    .selectFrom('rooms')
    .select(['id', 'name', 'position'])
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(toRoom);
}

export async function findRoom(db: Executor, id: string): Promise<Room | undefined> {
  const row = await db
    .selectFrom('rooms')
    .select(['id', 'name', 'position'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toRoom(row);
}

/** The position after the last room's (0 for the first). */
export async function nextRoomPosition(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('rooms')
    .select((eb) => eb.fn.max<number | string | null>('position').as('last'))
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

export async function insertRoom(
  db: Executor,
  room: { name: string; position: number; guid?: string | null; createdAt: string },
): Promise<Room> {
  const id = newId();
  await db
    .insertInto('rooms')
    .values({
      id,
      name: room.name,
      position: room.position,
      guid: room.guid ?? null,
      created_at: room.createdAt,
    })
    .execute();
  return { _id: id, name: room.name, position: room.position };
}

/** Changes a room's name and/or position; undefined when there is no such room. */
export async function updateRoom(
  db: Executor,
  id: string,
  change: { name?: string | undefined; position?: number | undefined },
): Promise<Room | undefined> {
  const set = {
    ...(change.name !== undefined && { name: change.name }),
    ...(change.position !== undefined && { position: change.position }),
  };
  if (Object.keys(set).length > 0) {
    await db.updateTable('rooms').set(set).where('id', '=', id).execute();
  }
  return findRoom(db, id);
}

/**
 * The room of this exact name (an import matches rooms by name), made when there is none; its
 * position (and guid, when given) set as given. Answers the room and whether it was made.
 */
export async function upsertRoomByName(
  db: Executor,
  room: { name: string; position: number; guid?: string | null; createdAt: string },
): Promise<{ room: Room; created: boolean }> {
  const found = await db
    .selectFrom('rooms')
    .select('id')
    .where('name', '=', room.name)
    .orderBy('id')
    .executeTakeFirst();
  if (!found) return { room: await insertRoom(db, room), created: true };
  await db
    .updateTable('rooms')
    .set({ position: room.position, ...(room.guid != null && { guid: room.guid }) })
    .where('id', '=', found.id)
    .execute();
  return { room: { _id: found.id, name: room.name, position: room.position }, created: false };
}

/** How many sessions (cancelled ones too) are in a room. */
export async function sessionCountInRoom(db: Executor, roomId: string): Promise<number> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('room_id', '=', roomId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Deletes a room (the caller made sure no session is in it); false when there was none. */
export function deleteRoom(db: Executor, id: string): Promise<boolean> {
  return wroteAny(db.deleteFrom('rooms').where('id', '=', id));
}

// ---- sessions -------------------------------------------------------------------------------

/** The speaker ids of each of these sessions (all when `sessionIds` is undefined), in order. */
async function speakerIdsBySession(
  db: Executor,
  sessionIds?: readonly string[],
): Promise<Map<string, string[]>> {
  if (sessionIds?.length === 0) return new Map();
  let query = db
    .selectFrom('session_speakers')
    .select(['session_id', 'speaker_id'])
    .orderBy('session_id')
    .orderBy('position');
  if (sessionIds) query = query.where('session_id', 'in', sessionIds);
  const bySession = new Map<string, string[]>();
  for (const row of await query.execute()) {
    const ids = bySession.get(row.session_id) ?? [];
    ids.push(row.speaker_id);
    bySession.set(row.session_id, ids);
  }
  return bySession;
}

async function withSpeakers(db: Executor, rows: SessionsTable[]): Promise<StoredSession[]> {
  // Every session's speakers in one query: all of them when the list is long.
  const bySession = await speakerIdsBySession(
    db,
    rows.length > 200 ? undefined : rows.map((row) => row.id),
  );
  return rows.map((row) => toStored(row, bySession.get(row.id) ?? []));
}

/** When the programme's last session that takes place ends (ISO time), or null: no programme. */
export async function programmeEndsAt(db: Executor): Promise<string | null> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.max<string | null>('ends_at').as('endsAt'))
    .where('cancelled', '=', 0)
    .executeTakeFirst();
  return row?.endsAt ?? null;
}

/** Every session, by start, then by room and creation. */
export async function listSessions(db: Executor): Promise<StoredSession[]> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .orderBy('starts_at')
    .orderBy('room_id')
    .orderBy('id')
    .execute();
  return withSpeakers(db, rows);
}

export async function findSession(db: Executor, id: string): Promise<StoredSession | undefined> {
  const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return toStored(row, (await speakerIdsBySession(db, [id])).get(id) ?? []);
}

/** The sessions a speaker is on (cancelled ones too), by start. */
export async function sessionsOfSpeaker(db: Executor, speakerId: string): Promise<StoredSession[]> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb.selectFrom('session_speakers').select('session_id').where('speaker_id', '=', speakerId),
    )
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
  return withSpeakers(db, rows);
}

/**
 * The session running at `now` (a UTC instant, `toISOString()`): not cancelled, started at or
 * before it and ending after it, in the room and/or with the speaker given. When two overlap,
 * the one that started last.
 */
export async function currentSession(
  db: Executor,
  where: { roomId?: string | undefined; speakerId?: string | undefined },
  now: string,
): Promise<StoredSession | undefined> {
  let query = db
    .selectFrom('sessions')
    .selectAll()
    .where('cancelled', '=', 0)
    .where('starts_at', '<=', now)
    .where('ends_at', '>', now);
  if (where.roomId !== undefined) query = query.where('room_id', '=', where.roomId);
  if (where.speakerId !== undefined) {
    const { speakerId } = where;
    query = query.where('id', 'in', (eb) =>
      eb.selectFrom('session_speakers').select('session_id').where('speaker_id', '=', speakerId),
    );
  }
  const row = await query
    .orderBy('starts_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && (await withSpeakers(db, [row]))[0];
}

/** A session's speaker ids, in order (none for an unknown session). */
export async function sessionSpeakerIds(db: Executor, sessionId: string): Promise<string[]> {
  return (await speakerIdsBySession(db, [sessionId])).get(sessionId) ?? [];
}

/** Adds a session; answers its id. `guid` is the imported schedule's, else null. */
export async function insertSession(
  db: Executor,
  session: SessionWrite & { guid?: string | null; now: string },
): Promise<string> {
  const id = newId();
  await db
    .insertInto('sessions')
    .values({
      id,
      guid: session.guid ?? null,
      title: session.title,
      abstract: session.abstract,
      room_id: session.roomId,
      starts_at: session.startsAt,
      ends_at: session.endsAt,
      track: session.track,
      cancelled: session.cancelled ? 1 : 0,
      revision: 0,
      created_at: session.now,
      updated_at: session.now,
    })
    .execute();
  return id;
}

/** Changes the fields given of a session; false when there is no such session. */
export function updateSession(
  db: Executor,
  id: string,
  change: Partial<SessionWrite> & { now: string },
): Promise<boolean> {
  const { now, ...fields } = change;
  return wroteAny(
    db
      .updateTable('sessions')
      .set((eb) => ({
        ...(fields.title !== undefined && { title: fields.title }),
        ...(fields.abstract !== undefined && { abstract: fields.abstract }),
        ...(fields.roomId !== undefined && { room_id: fields.roomId }),
        ...(fields.startsAt !== undefined && { starts_at: fields.startsAt }),
        ...(fields.endsAt !== undefined && { ends_at: fields.endsAt }),
        ...(fields.track !== undefined && { track: fields.track }),
        ...(fields.cancelled !== undefined && { cancelled: fields.cancelled ? 1 : 0 }),
        revision: eb('revision', '+', 1),
        updated_at: now,
      }))
      .where('id', '=', id),
  );
}

/**
 * The session with this guid (an import's event) updated to `session`, keeping its id, or added
 * when there is none. Answers its id and whether it was added.
 */
export async function upsertSessionByGuid(
  db: Executor,
  guid: string,
  session: SessionWrite & { now: string },
): Promise<{ id: string; created: boolean }> {
  const found = await db
    .selectFrom('sessions')
    .select('id')
    .where('guid', '=', guid)
    .executeTakeFirst();
  if (found) {
    await updateSession(db, found.id, session);
    return { id: found.id, created: false };
  }
  return { id: await insertSession(db, { ...session, guid }), created: true };
}

/** Every session that came from a schedule: id, guid and whether it is cancelled. */
export async function sessionsWithGuid(
  db: Executor,
): Promise<{ id: string; guid: string; cancelled: boolean }[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'guid', 'cancelled'])
    .where('guid', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    guid: row.guid ?? '',
    cancelled: row.cancelled === 1,
  }));
}

/** Marks a session cancelled (it stays, with what hangs on it); false when there is none. */
export function cancelSession(db: Executor, id: string, now: string): Promise<boolean> {
  return updateSession(db, id, { cancelled: true, now });
}

/** Sets a session's speakers, in this order (none: an empty list). */
export async function setSessionSpeakers(
  db: Executor,
  sessionId: string,
  speakerIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('session_speakers').where('session_id', '=', sessionId).execute();
  if (speakerIds.length === 0) return;
  await db
    .insertInto('session_speakers')
    .values(
      speakerIds.map((speakerId, position) => ({
        session_id: sessionId,
        speaker_id: speakerId,
        position,
      })),
    )
    .execute();
}

/**
 * Whether something hangs on a session that deleting it would orphan: questions asked in it, or
 * its polls. An import cancels such a session instead of deleting it.
 */
export async function sessionHasDependents(db: Executor, sessionId: string): Promise<boolean> {
  return (
    (await exists(db.selectFrom('questions').select('id').where('session_id', '=', sessionId))) ||
    exists(db.selectFrom('polls').select('id').where('session_id', '=', sessionId))
  );
}

/** How many polls a session has (decision 228: a session with polls is not deleted). */
export async function pollCountOfSession(db: Executor, sessionId: string): Promise<number> {
  const row = await db
    .selectFrom('polls')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Deletes a session and its speaker places; its questions stay, no longer in any session
 * (decision 210). False when there was no such session.
 */
export async function deleteSession(db: Executor, id: string): Promise<boolean> {
  await db
    .updateTable('questions')
    .set({ session_id: null })
    .where('session_id', '=', id)
    .execute();
  await db.deleteFrom('session_speakers').where('session_id', '=', id).execute();
  return wroteAny(db.deleteFrom('sessions').where('id', '=', id));
}

// ---- references -----------------------------------------------------------------------------

/** Those of `ids` that name no speaker. */
export async function unknownSpeakerIds(db: Executor, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('speakers').select('id').where('id', 'in', ids).execute();
  const known = new Set(rows.map((row) => row.id));
  return ids.filter((id) => !known.has(id));
}

/** The speaker an imported schedule's person id names, if any. */
export async function speakerIdByPersonId(
  db: Executor,
  personId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('speakers')
    .select('id')
    .where('schedule_person_id', '=', personId)
    .executeTakeFirst();
  return row?.id;
}

/** Records the schedule's person id of a speaker (unique: one speaker per person). */
/**
 * A speaker renamed by the schedule: their name, its key, and the name their questions carry
 * (a question stores its speaker's name as it was asked of them).
 */
export async function renameSpeaker(
  db: Executor,
  speaker: { id: string; name: string; nameKey: string | null },
): Promise<void> {
  await db
    .updateTable('speakers')
    .set({ name: speaker.name, name_key: speaker.nameKey })
    .where('id', '=', speaker.id)
    .execute();
  await db
    .updateTable('questions')
    .set((eb) => ({ speaker_name: speaker.name, revision: eb('revision', '+', 1) }))
    .where('speaker_id', '=', speaker.id)
    .execute();
}

export async function setSpeakerPersonId(
  db: Executor,
  speakerId: string,
  personId: string | null,
): Promise<void> {
  await db
    .updateTable('speakers')
    .set({ schedule_person_id: personId })
    .where('id', '=', speakerId)
    .execute();
}
