import type { DataStore } from '@tus/server';
import type { PurgeRemoved } from '../../shared/schemas/admin.ts';
import type { AppDeps } from '../deps.ts';
import { invalid } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import { deleteAllAttendees } from '../attendees/attendee.repository.ts';
import { deleteAllIdempotencyKeys } from '../memories/idempotency.repository.ts';
import { deleteMemoryRows, listStoredMemories } from '../memories/memory.repository.ts';
import { deleteAllReports } from '../memories/report.repository.ts';
import { deleteAllPollAnswers } from '../polls/poll.repository.ts';
import { deleteAllQuestions } from '../questions/question.repository.ts';
import { deleteResumableUpload, listUploadIds } from '../uploads/upload.repository.ts';
import { removeUploadFiles } from '../uploads/upload.service.ts';
import { deleteMemoryAuditEntries, insertAuditEntry } from './admin.repository.ts';

/** Rows handled at a time: a batch's files go, then its rows, in one short transaction. */
const BATCH = 100;

/** What purging needs: the data, the files, the events, and the resumable uploads' store. */
export type PurgeDeps = Pick<AppDeps, 'db' | 'media' | 'events' | 'clock'>;

/** Who purges: the admin (name and address), or the retention sweep. */
export type Purger = { username: string; ip: string } | 'retention';

const nothingRemoved = (): PurgeRemoved => ({
  attendees: 0,
  memories: 0,
  files: 0,
  questions: 0,
  votes: 0,
  uploads: 0,
  pollAnswers: 0,
});

const total = (removed: PurgeRemoved) =>
  Object.values(removed).reduce((sum, count) => sum + count, 0);

/**
 * Removes every attendee's data (decision 218): unfinished uploads with their files, memories
 * with every file of theirs (renditions, posters, masters) on disk or in the bucket, questions,
 * votes, polls' answers (the polls stay, with no votes), attendees, reports on memories, the answers kept for `Idempotency-Key`s, and the
 * moderation log's quotes of memories. Keeps the settings, the speakers and the programme.
 *
 * Files go before their row, a batch at a time: a failure half-way (a store that does not
 * answer) leaves rows whose files may be gone, never a file no row names, and running it again
 * carries on where it stopped (deleting a file that is gone already is harmless). Safe to run on
 * two instances at once: each counts only the rows it removed. Whatever it removed, even when it
 * then fails, is told once (`eventDataPurged`): lists and open screens read everything again.
 */
export async function purgeEventData(
  deps: PurgeDeps,
  uploads: DataStore,
  by: Purger,
): Promise<PurgeRemoved> {
  const removed = nothingRemoved();
  try {
    for (;;) {
      const ids = await listUploadIds(deps.db, BATCH);
      for (const id of ids) {
        await removeUploadFiles(uploads, id);
        await deleteResumableUpload(deps.db, id);
        removed.uploads += 1;
      }
      if (ids.length < BATCH) break;
    }
    for (;;) {
      const batch = await listStoredMemories(deps.db, BATCH);
      for (const { mediaKeys } of batch) {
        for (const key of mediaKeys) await deps.media.delete(key);
        removed.files += mediaKeys.length;
      }
      removed.memories += await deleteMemoryRows(
        deps.db,
        batch.map(({ memory }) => memory._id),
      );
      if (batch.length < BATCH) break;
    }
    await deps.db.transaction().execute(async (trx) => {
      const { questions, votes } = await deleteAllQuestions(trx);
      removed.questions += questions;
      removed.votes += votes;
      removed.pollAnswers += await deleteAllPollAnswers(trx);
      removed.attendees += await deleteAllAttendees(trx);
      await deleteAllIdempotencyKeys(trx);
      await deleteAllReports(trx);
      await deleteMemoryAuditEntries(trx);
      if (total(removed) === 0) return;
      await insertAuditEntry(trx, {
        id: newId(),
        adminUsername: by === 'retention' ? 'retention' : by.username,
        action: 'event.purge',
        targetId: 'event',
        createdAt: deps.clock.now().toISOString(),
        details: { removed: { ...removed }, ip: by === 'retention' ? null : by.ip },
      });
    });
  } finally {
    if (total(removed) > 0) await deps.events.publish({ type: 'eventDataPurged', removed });
  }
  return removed;
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
): Promise<PurgeRemoved> {
  if (confirm !== deps.settings.current.eventName) throw invalid('purgeConfirm');
  return purgeEventData(deps, uploads, admin);
}
