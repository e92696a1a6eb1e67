import type { DataStore } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { PurgeRemoved } from '../../shared/schemas/admin.ts';
import { deleteAllAttendees } from '../attendees/attendee.repository.ts';
import { type RemovalRun, noneRemoved, removeAttendeeData } from '../attendees/data-removal.ts';
import type { AppDeps } from '../deps.ts';
import { HttpError, invalid, unavailable } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import { deleteMemoryAuditEntries, insertAuditEntry } from './admin.repository.ts';

/** What purging needs: the data, the files, the events, and the resumable uploads' store. */
export type PurgeDeps = Pick<AppDeps, 'db' | 'media' | 'events' | 'clock' | 'settings'>;

/** Who purges: the admin (name and address), or the retention sweep. */
export type Purger = { username: string; ip: string } | 'retention';

const total = (removed: PurgeRemoved) =>
  Object.values(removed).reduce((sum, count) => sum + count, 0);

/**
 * Removes every attendee's data (decision 218) the way an attendee's erasure removes theirs
 * (`removeAttendeeData`, scope everyone): unfinished uploads with their files, memories with
 * every file of theirs (renditions, posters, masters) on disk or in the bucket, questions,
 * votes, polls' answers (the polls stay, with no votes), reports on memories, the answers kept
 * for `Idempotency-Key`s; then the attendees (an erased one keeps its marker) and the moderation
 * log's quotes of memories, and the purge's own entry, whose time refuses every attendee token
 * issued before it, on every instance. Keeps the settings, the speakers and the programme.
 *
 * A memory's row goes with the record of its files, then the files: a failure half-way (a store
 * that does not answer) leaves no file unrecorded, everything else still goes, and a 503 asks to
 * try again; running it again deletes what was left. Safe to run on two instances at once: each
 * counts only the rows it removed. Whatever it removed, even when it then fails, is told once
 * (`eventDataPurged`): lists and open screens read everything again.
 */
export async function purgeEventData(
  deps: PurgeDeps,
  uploads: DataStore,
  by: Purger,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<PurgeRemoved> {
  const counts = noneRemoved();
  const removed = (attendees: number): PurgeRemoved => ({ attendees, ...counts });
  let attendees = 0;
  let purgedAt: string | null = null;
  const run: RemovalRun = { deps, uploads, scope: 'everyone', log, left: 0 };
  try {
    await removeAttendeeData(run, counts);
    await deps.db.transaction().execute(async (trx) => {
      attendees = await deleteAllAttendees(trx);
      await deleteMemoryAuditEntries(trx);
      if (total(removed(attendees)) === 0) return;
      const now = deps.clock.now().toISOString();
      await insertAuditEntry(trx, {
        id: newId(),
        adminUsername: by === 'retention' ? 'retention' : by.username,
        action: 'event.purge',
        targetId: 'event',
        createdAt: now,
        details: { removed: removed(attendees), ip: by === 'retention' ? null : by.ip },
      });
      purgedAt = now;
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // Whatever failed, what went is gone and the rest goes when it is tried again.
    throw Object.assign(unavailable('purgeUnfinished'), { cause: error });
  } finally {
    const told = removed(attendees);
    if (total(told) > 0) {
      await deps.events.publish({ type: 'eventDataPurged', removed: told, purgedAt });
    }
  }
  if (run.left > 0) throw unavailable('purgeUnfinished');
  return removed(attendees);
}

/**
 * The organiser's "Purge event data": only with the event's name typed exactly (400 otherwise,
 * and nothing is removed).
 */
export async function purgeAsAdmin(
  deps: PurgeDeps & Pick<AppDeps, 'settings'>,
  uploads: DataStore,
  confirm: string,
  admin: { username: string; ip: string },
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<PurgeRemoved> {
  if (confirm !== deps.settings.current.eventName) throw invalid('purgeConfirm');
  return purgeEventData(deps, uploads, admin, log);
}
