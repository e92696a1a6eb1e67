import type { DataStore } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { attendeeRequesterKey } from '../http/transport/rate-limits.ts';
import {
  deleteAllIdempotencyKeys,
  deleteIdempotencyKeysOf,
} from '../memories/idempotency.repository.ts';
import { deleteMemoryRows, listStoredMemories } from '../memories/memory.repository.ts';
import { deleteMemoriesOf } from '../memories/memory.service.ts';
import { deleteAllReports } from '../memories/report.repository.ts';
import { withdrawReportsOf } from '../memories/report.service.ts';
import { deleteAllPollAnswers } from '../polls/poll.repository.ts';
import { withdrawAnswersOf } from '../polls/poll.service.ts';
import { deleteSubscriptionsOf } from '../push/push.repository.ts';
import { deleteAllQuestions } from '../questions/question.repository.ts';
import { removeQuestionsAskedBy, withdrawVotesOf } from '../questions/question.service.ts';
import { deleteResumableUpload, listUploadIds } from '../uploads/upload.repository.ts';
import { removeUploadFiles, removeUploadsOf } from '../uploads/upload.service.ts';
import { deleteErasureFiles, insertErasureFiles, listErasureFiles } from './erasure.repository.ts';

/**
 * Whose data goes: one attendee (their erasure, decision 214) or every attendee (a purge,
 * decision 218).
 */
export type RemovalScope = { attendeeId: string } | 'everyone';

/** What a removal took away, by kind. */
export interface RemovedCounts {
  memories: number;
  /** Files of memories deleted from the store (now, or left by an earlier run). */
  files: number;
  /** Unfinished resumable uploads, with the chunks stored so far. */
  uploads: number;
  questions: number;
  votes: number;
  pollAnswers: number;
}

export type RemovalDeps = Pick<AppDeps, 'db' | 'media' | 'events' | 'clock' | 'settings'>;

/** One run of a removal: what it works on, and what it could not finish. */
export interface RemovalRun {
  deps: RemovalDeps;
  /** Where resumable uploads keep their chunks. */
  uploads: DataStore;
  scope: RemovalScope;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** Files this run could not delete: they are left, recorded, for the next run. */
  left: number;
}

/** One kind of attendees' data: removes it for the run's scope and answers what went. */
type Removal = (run: RemovalRun) => Promise<Partial<RemovedCounts>>;

/** Rows handled at a time. */
const BATCH = 100;

const attendeeOf = (scope: RemovalScope): string | undefined =>
  scope === 'everyone' ? undefined : scope.attendeeId;

/**
 * Deletes a stored file of a row already removed, and forgets its record in `erasure_files`; a
 * file the store does not delete now keeps its record, for the next run (or the orphan sweep).
 */
async function deleteRecordedFile(run: RemovalRun, key: string): Promise<boolean> {
  try {
    await run.deps.media.delete(key);
  } catch (error) {
    run.log.warn({ err: error, key }, 'a removed memory’s file could not be deleted yet');
    run.left += 1;
    return false;
  }
  await deleteErasureFiles(run.deps.db, [key]);
  return true;
}

/** Files an earlier run recorded and could not delete. */
const removeLeftFiles: Removal = async (run) => {
  const attendeeId = attendeeOf(run.scope);
  let files = 0;
  for (let after: string | undefined; ;) {
    const keys = await listErasureFiles(run.deps.db, attendeeId, { limit: BATCH, after });
    for (const key of keys) if (await deleteRecordedFile(run, key)) files += 1;
    after = keys.at(-1);
    if (keys.length < BATCH) return { files };
  }
};

/**
 * Memories with every file of theirs: each row goes with the record of its files in one
 * transaction, then the files; one the store does not delete stays recorded. An attendee's go
 * the one way a memory is deleted (open galleries and viewers drop each at once); everyone's a
 * batch at a time, told by the purge's one event.
 */
const removeMemories: Removal = async (run) => {
  const { deps, scope } = run;
  const now = deps.clock.now().toISOString();
  let files = 0;
  if (scope !== 'everyone') {
    const media = {
      delete: async (key: string) => {
        if (await deleteRecordedFile(run, key)) files += 1;
      },
    };
    const memories = await deleteMemoriesOf({ ...deps, media }, scope.attendeeId, (trx, removed) =>
      insertErasureFiles(trx, scope.attendeeId, removed.mediaKeys, now),
    );
    return { memories, files };
  }
  let memories = 0;
  for (;;) {
    const batch = await listStoredMemories(deps.db, BATCH);
    memories += await deps.db.transaction().execute(async (trx) => {
      for (const { ownerId, mediaKeys } of batch) {
        await insertErasureFiles(trx, ownerId ?? '', mediaKeys, now);
      }
      return deleteMemoryRows(
        trx,
        batch.map(({ memory }) => memory._id),
      );
    });
    for (const { mediaKeys } of batch) {
      for (const key of mediaKeys) if (await deleteRecordedFile(run, key)) files += 1;
    }
    if (batch.length < BATCH) return { memories, files };
  }
};

/**
 * Unfinished resumable uploads (the chunks stored so far), and the record of finished ones: the
 * row goes once its chunks are gone, so one the store keeps now is found by the next run.
 */
const removeUploads: Removal = async (run) => {
  const { deps, scope } = run;
  if (scope !== 'everyone') {
    const { removed, failed } = await removeUploadsOf(deps, run.uploads, scope.attendeeId);
    if (failed > 0) run.log.warn({ uploads: failed }, 'uploads left for the next run');
    run.left += failed;
    return { uploads: removed };
  }
  let uploads = 0;
  for (;;) {
    const ids = await listUploadIds(deps.db, BATCH);
    let failed = 0;
    for (const id of ids) {
      try {
        await removeUploadFiles(run.uploads, id);
      } catch (error) {
        run.log.warn({ err: error, upload: id }, 'an upload’s chunks could not be deleted yet');
        failed += 1;
        continue;
      }
      await deleteResumableUpload(deps.db, id);
      uploads += 1;
    }
    run.left += failed;
    // A batch with a failure would be listed again: what is left waits for the next run.
    if (failed > 0 || ids.length < BATCH) return { uploads };
  }
};

/** The questions asked, with the votes others gave them, and the votes given. */
const removeQuestions: Removal = async ({ deps, scope }) => {
  if (scope === 'everyone') return deps.db.transaction().execute(deleteAllQuestions);
  return {
    questions: await removeQuestionsAskedBy(deps, scope.attendeeId),
    votes: await withdrawVotesOf(deps, scope.attendeeId),
  };
};

/** Poll answers: each poll's counts, voters and lists go down (the polls stay). */
const removePollAnswers: Removal = async ({ deps, scope }) => ({
  pollAnswers:
    scope === 'everyone'
      ? await deps.db.transaction().execute(deleteAllPollAnswers)
      : await withdrawAnswersOf(deps, scope.attendeeId),
});

/** Reports made on memories: they name who reported (a hidden memory stays hidden). */
const removeReports: Removal = async ({ deps, scope }) => {
  if (scope === 'everyone') await deleteAllReports(deps.db);
  else await withdrawReportsOf(deps, scope.attendeeId);
  return {};
};

/** Devices subscribed to announcements by Web Push (decision 240): their push addresses. */
const removePushSubscriptions: Removal = async ({ deps, scope }) => {
  await deleteSubscriptionsOf(deps.db, attendeeOf(scope));
  return {};
};

/** The answers kept for `Idempotency-Key`s, which name the posts. */
const removeIdempotencyAnswers: Removal = async ({ deps, scope }) => {
  if (scope === 'everyone') await deleteAllIdempotencyKeys(deps.db);
  else await deleteIdempotencyKeysOf(deps.db, attendeeRequesterKey(scope.attendeeId));
  return {};
};

/**
 * Every kind of attendees' data, in the order it goes: an attendee's erasure and a purge both
 * run these (decisions 214 and 218). A part of the app that keeps something more of attendees
 * adds its line here (and to the export, `exportAttendee`).
 */
const REMOVALS: readonly Removal[] = [
  removeLeftFiles,
  removeMemories,
  removeUploads,
  removeQuestions,
  removePollAnswers,
  removeReports,
  removePushSubscriptions,
  removeIdempotencyAnswers,
];

/**
 * Removes the data of `run.scope`, kind by kind, adding what went to `removed` as it goes (so a
 * caller that fails half-way still knows what went). A file the store does not delete now is
 * counted in `run.left` and stays recorded; everything else still goes: a second run finishes.
 */
export async function removeAttendeeData(run: RemovalRun, removed: RemovedCounts): Promise<void> {
  for (const remove of REMOVALS) {
    const done = await remove(run);
    for (const [kind, count] of Object.entries(done) as [keyof RemovedCounts, number][]) {
      removed[kind] += count;
    }
  }
}

export const noneRemoved = (): RemovedCounts => ({
  memories: 0,
  files: 0,
  uploads: 0,
  questions: 0,
  votes: 0,
  pollAnswers: 0,
});
