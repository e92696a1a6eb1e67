import type { ExpressionBuilder, Updateable } from 'kysely';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { Database, MemoriesTable } from '../db/database.ts';
import { type Executor, type PageAfter, oldestFirst, wroteAny } from '../db/queries.ts';
import { findMemory } from './memory.repository.ts';

// The queue of videos whose playable rendition is still to be made (decision 154): a memory row
// is a job while it is processing, held by one instance at a time through its lease.

/** A video whose playable rendition is still to be made. */
export interface PendingRendition {
  id: string;
  username: string;
}

/** Renditions no instance holds at `now`: without a lease, or with one that ran out. */
const unheldAt = (now: string) => (eb: ExpressionBuilder<Database, 'memories'>) =>
  eb.or([eb('render_lease_until', 'is', null), eb('render_lease_until', '<', now)]);

/** Renditions `owner` holds and has not finished. */
const heldBy = (owner: string) => (eb: ExpressionBuilder<Database, 'memories'>) =>
  eb.and([eb('render_owner', '=', owner), eb('processing', '=', 1)]);

/**
 * Videos still processing that no instance holds (no lease, or one run out at `now`), oldest
 * first, `limit` at a time after `after`.
 */
export function listPendingRenditions(
  db: Executor,
  query: PageAfter & { now: string },
): Promise<PendingRendition[]> {
  return db
    .selectFrom('memories')
    .select(['id', 'username'])
    .where('processing', '=', 1)
    .where(unheldAt(query.now))
    .$call(oldestFirst(query))
    .execute();
}

/** An instance's bid to make the rendition of video `id`. */
export interface RenditionClaim {
  id: string;
  /** The instance. */
  owner: string;
  /** The time other instances' leases are judged at. */
  now: string;
  /** When the lease it takes runs out. */
  until: string;
}

/**
 * Takes the making of a video's rendition for `owner` until `until`, when no other instance
 * holds it (its lease run out at `now`). Answers false when another holds it, or it is done or
 * gone: then this instance leaves it.
 */
export function claimRendition(db: Executor, claim: RenditionClaim): Promise<boolean> {
  return wroteAny(
    db
      .updateTable('memories')
      .set({ render_owner: claim.owner, render_lease_until: claim.until })
      .where('id', '=', claim.id)
      .where('processing', '=', 1)
      .where((eb) => eb.or([unheldAt(claim.now)(eb), eb('render_owner', '=', claim.owner)])),
  );
}

/** Changes the rows of the renditions `owner` holds among `ids`. */
async function updateHeldRenditions(
  db: Executor,
  held: { owner: string; ids: string[] },
  change: Updateable<MemoriesTable>,
): Promise<void> {
  if (held.ids.length === 0) return;
  await db
    .updateTable('memories')
    .set(change)
    .where('id', 'in', held.ids)
    .where(heldBy(held.owner))
    .execute();
}

/** Extends the leases `owner` holds on `ids` until `until`. */
export function renewRenditionLeases(
  db: Executor,
  lease: { owner: string; ids: string[]; until: string },
): Promise<void> {
  return updateHeldRenditions(db, lease, { render_lease_until: lease.until });
}

/** Lets go of the renditions `owner` holds (it is stopping): another instance, or the next start, takes them. */
export function releaseRenditions(
  db: Executor,
  release: { owner: string; ids: string[] },
): Promise<void> {
  return updateHeldRenditions(db, release, { render_owner: null, render_lease_until: null });
}

/** What a rendition is made from: the stored original. */
export async function findRenditionSource(
  db: Executor,
  id: string,
): Promise<{ sourceKey: string; hasPoster: boolean } | undefined> {
  const row = await db
    .selectFrom('memories')
    .select(['media_key', 'original_key', 'poster_key'])
    .where('id', '=', id)
    .where('processing', '=', 1)
    .executeTakeFirst();
  return row
    ? { sourceKey: row.original_key ?? row.media_key, hasPoster: row.poster_key !== null }
    : undefined;
}

/**
 * Ends the processing of a video held by `owner`: with a rendition, `media` now names it (the
 * original stays); without one (ffmpeg failed), the original stays its media. Answers the memory
 * as it is now, or undefined when it is gone or no longer held by `owner` (the rendition is then
 * not needed).
 */
export async function finishRendition(
  db: Executor,
  done: {
    id: string;
    owner: string;
    rendition?: {
      mediaKey: string;
      contentType: string;
      sizeBytes: number;
      width: number;
      height: number;
    };
    /** A poster made now, for a video stored before posters were. */
    poster?: { posterKey: string; thumbnailKey: string };
  },
): Promise<Memory | undefined> {
  const { rendition, poster } = done;
  const finished = await wroteAny(
    db
      .updateTable('memories')
      .set({
        processing: 0,
        render_owner: null,
        render_lease_until: null,
        ...(rendition
          ? {
              media_key: rendition.mediaKey,
              content_type: rendition.contentType,
              size_bytes: rendition.sizeBytes,
              width: rendition.width,
              height: rendition.height,
            }
          : {}),
        ...(poster ? { poster_key: poster.posterKey, thumbnail_key: poster.thumbnailKey } : {}),
      })
      .where('id', '=', done.id)
      .where(heldBy(done.owner)),
  );
  return finished ? (await findMemory(db, done.id))?.memory : undefined;
}
