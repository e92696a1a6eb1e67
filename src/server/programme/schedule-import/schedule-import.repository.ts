import type { Executor } from '../../db/queries.ts';

/** What matching a schedule's people needs of every speaker. */
export interface SpeakerKeys {
  id: string;
  name: string;
  username: string;
  nameKey: string | null;
  personId: string | null;
}

/** Every speaker's id, name, username, name key and schedule person id, in one read. */
export async function speakerKeys(db: Executor): Promise<SpeakerKeys[]> {
  const rows = await db
    .selectFrom('speakers')
    .select(['id', 'name', 'username', 'name_key', 'schedule_person_id'])
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    username: row.username,
    nameKey: row.name_key,
    personId: row.schedule_person_id ?? null,
  }));
}

/** A speaker made from a schedule's person: no picture, no secret until a link is issued. */
export interface ImportedSpeaker {
  id: string;
  name: string;
  username: string;
  bio: string;
  message: string;
  createdAt: string;
  /** Null when a speaker of another person has the same name key (decision 212). */
  nameKey: string | null;
  personId: string;
}

/** Rows a single INSERT carries at most (SQLite's and PostgreSQL's parameter limits). */
const INSERT_BATCH = 100;

/** Stores speakers made from a schedule's people, a hundred at a time. */
export async function insertImportedSpeakers(
  db: Executor,
  speakers: readonly ImportedSpeaker[],
): Promise<void> {
  for (let start = 0; start < speakers.length; start += INSERT_BATCH) {
    await db
      .insertInto('speakers')
      .values(
        speakers.slice(start, start + INSERT_BATCH).map((speaker) => ({
          id: speaker.id,
          name: speaker.name,
          username: speaker.username,
          stack: '',
          bio: speaker.bio,
          // No picture: the API shows a silhouette for an empty key.
          picture_key: '',
          avatar_key: null,
          message: speaker.message,
          created_at: speaker.createdAt,
          name_key: speaker.nameKey,
          secret_hash: null,
          schedule_person_id: speaker.personId,
        })),
      )
      .execute();
  }
}

/** The first start and the last end of the programme's sessions (not cancelled), if any. */
export async function programmeSpan(
  db: Executor,
): Promise<{ firstStart: string; lastEnd: string } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => [
      eb.fn.min<string | null>('starts_at').as('firstStart'),
      eb.fn.max<string | null>('ends_at').as('lastEnd'),
    ])
    .where('cancelled', '=', 0)
    .executeTakeFirst();
  return row?.firstStart && row.lastEnd
    ? { firstStart: row.firstStart, lastEnd: row.lastEnd }
    : undefined;
}

const LEASE_KEY = 'scheduleRefreshLease';

/**
 * Takes (or keeps) the lease on refreshing the schedule for `owner` until `until`, unless
 * another instance holds one that has not run out at `now`: a compare-and-set on one settings
 * row, so one instance at a time fetches. True when `owner` holds it now.
 */
export async function takeRefreshLease(
  db: Executor,
  lease: { owner: string; now: string; until: string },
): Promise<boolean> {
  await db
    .insertInto('settings')
    .values({ key: LEASE_KEY, value: '{}' })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', LEASE_KEY)
    .executeTakeFirst();
  const current = row?.value ?? '{}';
  let held: { owner?: unknown; until?: unknown } = {};
  try {
    held = JSON.parse(current) as typeof held;
  } catch {
    // A damaged row is nobody's lease.
  }
  if (held.owner !== lease.owner && typeof held.until === 'string' && held.until > lease.now) {
    return false;
  }
  const result = await db
    .updateTable('settings')
    .set({ value: JSON.stringify({ owner: lease.owner, until: lease.until }) })
    .where('key', '=', LEASE_KEY)
    .where('value', '=', current)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
