import { sql } from 'kysely';
import type { Speaker } from '../../shared/schemas/speaker.ts';
import type { Db, SpeakersTable } from '../db/database.ts';
import { type Executor, countRows, exists, wroteAny } from '../db/queries.ts';
import { mediaUrl } from '../media/media-url.ts';
import { SPEAKER_NO_PICTURE } from '../../shared/qa-constants.ts';

/** What the service stores for one speaker. */
export interface NewSpeaker {
  id: string;
  name: string;
  username: string;
  stack: string;
  bio: string;
  pictureKey: string;
  avatarKey: string;
  message: string;
  createdAt: string;
  nameKey: string;
  secretHash: string;
}

const toSpeaker = (row: SpeakersTable): Speaker => ({
  _id: row.id,
  name: row.name,
  username: row.username,
  stack: row.stack,
  bio: row.bio,
  // A speaker imported from a schedule has no picture stored (an empty key).
  picture: row.picture_key ? mediaUrl(row.picture_key) : SPEAKER_NO_PICTURE,
  avatar: row.avatar_key ? mediaUrl(row.avatar_key) : null,
  message: row.message,
  createdAt: row.created_at,
});

export async function insertSpeaker(db: Executor, speaker: NewSpeaker): Promise<Speaker> {
  const row: SpeakersTable = {
    id: speaker.id,
    name: speaker.name,
    username: speaker.username,
    stack: speaker.stack,
    bio: speaker.bio,
    picture_key: speaker.pictureKey,
    avatar_key: speaker.avatarKey,
    message: speaker.message,
    created_at: speaker.createdAt,
    name_key: speaker.nameKey,
    secret_hash: speaker.secretHash,
  };
  await db.insertInto('speakers').values(row).execute();
  return toSpeaker(row);
}

/** Usernames already taken by `base` or `base-<anything>`, to pick the next free suffix. */
export async function usernamesStartingWith(db: Executor, base: string): Promise<string[]> {
  const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`;
  const rows = await db
    .selectFrom('speakers')
    .select('username')
    .where((eb) =>
      eb.or([
        eb('username', '=', base),
        eb('username', 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    )
    .execute();
  return rows.map((row) => row.username);
}

/** Every speaker, by name (case-insensitive), then by sign-up order. */
export async function listSpeakers(db: Executor): Promise<Speaker[]> {
  const rows = await db
    .selectFrom('speakers')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
  return rows.map(toSpeaker);
}

/** The speakers with these ids, in the order of `ids` (ids of nobody are left out). */
export async function speakersByIds(db: Executor, ids: readonly string[]): Promise<Speaker[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('speakers').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, toSpeaker(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The newest id and the count: speakers are never edited, so these tell whether the list changed. */
export async function speakersVersion(
  db: Executor,
): Promise<{ newestId: string | null; count: number }> {
  const row = await db
    .selectFrom('speakers')
    .select((eb) => [
      eb.fn.max<string | null>('id').as('newest'),
      eb.fn.countAll<number | string>().as('count'),
    ])
    .executeTakeFirstOrThrow();
  return { newestId: row.newest, count: Number(row.count) };
}

/** Usernames are stored in lower case, so a lower-cased lookup is case-insensitive. */
export async function findSpeakerByUsername(
  db: Executor,
  username: string,
): Promise<Speaker | undefined> {
  const row = await db
    .selectFrom('speakers')
    .selectAll()
    .where('username', '=', username.toLowerCase())
    .executeTakeFirst();
  return row ? toSpeaker(row) : undefined;
}

/** The hash of a speaker's sign-in secret, by username (any case). */
export async function secretHashOf(
  db: Executor,
  username: string,
): Promise<{ id: string; secretHash: string | null } | undefined> {
  const row = await db
    .selectFrom('speakers')
    .select(['id', 'secret_hash'])
    .where('username', '=', username.toLowerCase())
    .executeTakeFirst();
  return row ? { id: row.id, secretHash: row.secret_hash } : undefined;
}

/** Replaces a speaker's secret; false when there is no such speaker. */
export function setSecretHash(db: Executor, id: string, secretHash: string): Promise<boolean> {
  return wroteAny(db.updateTable('speakers').set({ secret_hash: secretHash }).where('id', '=', id));
}

/** Deletes a speaker with their questions and votes; answers the deleted speaker's files. */
export async function deleteSpeaker(
  db: Db,
  id: string,
): Promise<{ pictureKey: string; avatarKey: string | null } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('speakers')
      .select(['picture_key', 'avatar_key'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    await trx
      .deleteFrom('question_votes')
      .where('question_id', 'in', (eb) =>
        eb.selectFrom('questions').select('id').where('speaker_id', '=', id),
      )
      .execute();
    await trx.deleteFrom('questions').where('speaker_id', '=', id).execute();
    await trx.deleteFrom('speakers').where('id', '=', id).execute();
    return { pictureKey: row.picture_key, avatarKey: row.avatar_key };
  });
}

export function speakerCount(db: Executor): Promise<number> {
  return countRows(db, 'speakers');
}

/** Whether a speaker already has this name key (decision 110). */
export function nameKeyTaken(db: Executor, nameKey: string): Promise<boolean> {
  return exists(db.selectFrom('speakers').select('id').where('name_key', '=', nameKey));
}
