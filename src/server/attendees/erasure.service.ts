import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { AttendeeExport, Removed } from '../../shared/schemas/privacy.ts';
import { memoriesArchive } from '../memories/memories-archive.ts';
import type { Attendee } from '../auth/callers.ts';
import type { AppDeps } from '../deps.ts';
import { unauthorized, unavailable } from '../http/errors.ts';
import { attendeeRequesterKey } from '../http/transport/rate-limits.ts';
import { deleteIdempotencyKeysOf } from '../memories/idempotency.repository.ts';
import { deleteMemoriesOf, memoriesOf } from '../memories/memory.service.ts';
import { reportsOf, withdrawReportsOf } from '../memories/report.service.ts';
import { pollAnswersOf, withdrawAnswersOf } from '../polls/poll.service.ts';
import {
  questionsOfAttendee,
  removeQuestionsAskedBy,
  withdrawVotesOf,
} from '../questions/question.service.ts';
import { removeUploadsOf } from '../uploads/upload.service.ts';
import { beginErasure, findAttendeeJoinedAt, finishErasure } from './attendee.repository.ts';
import { deleteErasureFiles, insertErasureFiles, listErasureFiles } from './erasure.repository.ts';

type ErasureDeps = Pick<AppDeps, 'db' | 'media' | 'events' | 'clock' | 'settings'>;

/** One run of an attendee's erasure: what it works on, and what it could not finish. */
interface ErasureRun {
  deps: ErasureDeps;
  /** Where resumable uploads keep their chunks. */
  uploads: DataStore;
  attendeeId: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** Files this run could not delete: they are left for the next run. */
  left: number;
}

/** One kind of an attendee's data: erases it and answers what went. */
type Eraser = (run: ErasureRun) => Promise<Partial<Removed>>;

/**
 * Deletes a stored file of a row already erased, and forgets its note in `erasure_files`; a file
 * the store does not delete now keeps its note, for the next run (or the orphan sweep).
 */
async function deleteErasedFile(run: ErasureRun, key: string): Promise<boolean> {
  try {
    await run.deps.media.delete(key);
  } catch (error) {
    run.log.warn({ err: error, key }, 'an erased file could not be deleted yet');
    run.left += 1;
    return false;
  }
  await deleteErasureFiles(run.deps.db, [key]);
  return true;
}

/**
 * Their memories, each the one way a memory is deleted (row, open galleries and viewers, files),
 * its files noted in the row's transaction so none is lost if the store fails after it.
 */
const eraseMemories: Eraser = async (run) => {
  const { deps, attendeeId } = run;
  const now = deps.clock.now().toISOString();
  let files = 0;
  const media = {
    delete: async (key: string) => {
      if (await deleteErasedFile(run, key)) files += 1;
    },
  };
  const memories = await deleteMemoriesOf({ ...deps, media }, attendeeId, (trx, removed) =>
    insertErasureFiles(trx, attendeeId, removed.mediaKeys, now),
  );
  return { memories, files };
};

/** Files an earlier run noted and could not delete. */
const eraseLeftFiles: Eraser = async (run) => {
  let files = 0;
  for (let after: string | undefined; ;) {
    const keys = await listErasureFiles(run.deps.db, run.attendeeId, { limit: 100, after });
    for (const key of keys) if (await deleteErasedFile(run, key)) files += 1;
    after = keys.at(-1);
    if (keys.length < 100) return { files };
  }
};

/** Their unfinished resumable uploads (the chunks stored so far), and the record of finished ones. */
const eraseUploads: Eraser = async (run) => {
  const { removed, failed } = await removeUploadsOf(run.deps, run.uploads, run.attendeeId);
  if (failed > 0) {
    run.log.warn({ attendeeId: run.attendeeId, uploads: failed }, 'uploads left for the next run');
    run.left += failed;
  }
  return { files: removed };
};

/**
 * Every kind of an attendee's data, in the order it is erased (decision 214): rows in their own
 * transactions, each change published as the admin's or the attendee's own would be, so open
 * screens drop it at once; the files of erased rows after. A part of the app that keeps
 * something more of an attendee adds its line here, and to `EXPORTED` below.
 */
const ERASERS: readonly Eraser[] = [
  eraseLeftFiles,
  eraseMemories,
  eraseUploads,
  // The questions they asked, with the votes others gave them.
  async ({ deps, attendeeId }) => ({ questions: await removeQuestionsAskedBy(deps, attendeeId) }),
  // Their votes: each question's count goes down.
  async ({ deps, attendeeId }) => ({ votes: await withdrawVotesOf(deps, attendeeId) }),
  // Their poll answers: each poll's counts, voters and lists go down.
  async ({ deps, attendeeId }) => ({ pollAnswers: await withdrawAnswersOf(deps, attendeeId) }),
  // The reports they made: each memory's open count goes down (a hidden one stays hidden).
  async ({ deps, attendeeId }) => {
    await withdrawReportsOf(deps, attendeeId);
    return {};
  },
  // The answers kept for their `Idempotency-Key`s, which name their posts.
  async ({ deps, attendeeId }) => {
    await deleteIdempotencyKeysOf(deps.db, attendeeRequesterKey(attendeeId));
    return {};
  },
];

/**
 * Erases attendee `attendee` (DELETE /api/attendees/me, decision 214). First marks them as being
 * erased, and tells every instance: their token is refused from then on, but to finish this.
 * Then every kind of their data goes (`ERASERS`). When a file could not be deleted, everything
 * else is gone and a 503 asks to try again: the next run deletes what is left. Once nothing is
 * left, the erasure is finished: the token is refused everywhere, and their row keeps only its
 * id and the times. Answers what this run removed.
 */
export async function eraseAttendee(
  deps: ErasureDeps,
  uploads: DataStore,
  attendee: Attendee,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<Removed> {
  const attendeeId = attendee.id;
  const began = await beginErasure(deps.db, attendeeId, deps.clock.now().toISOString());
  // Finished meanwhile by a run on another instance.
  if (began === 'erased') throw unauthorized('erased');
  // Each run says so again: an instance that missed it hears it now.
  await deps.events.publish({ type: 'attendeeErasure', attendeeId, state: 'erasing' });

  const run: ErasureRun = { deps, uploads, attendeeId, log, left: 0 };
  const removed: Removed = { memories: 0, questions: 0, votes: 0, pollAnswers: 0, files: 0 };
  for (const erase of ERASERS) {
    const done = await erase(run);
    for (const [kind, count] of Object.entries(done) as [keyof Removed, number][]) {
      removed[kind] += count;
    }
  }
  if (run.left > 0) throw unavailable('erasureUnfinished');

  await finishErasure(deps.db, attendeeId, deps.clock.now().toISOString());
  await deps.events.publish({ type: 'attendeeErasure', attendeeId, state: 'erased' });
  return removed;
}

/** A media URL as the export gives it: absolute when the server knows its public address. */
const absolute = (origin: string | undefined, url: string): string =>
  origin ? new URL(url, origin).href : url;

const withUrls =
  (origin: string | undefined) =>
  (memory: Memory): Memory => ({
    ...memory,
    media: absolute(origin, memory.media),
    original: absolute(origin, memory.original),
    thumbnail: memory.thumbnail && absolute(origin, memory.thumbnail),
    poster: memory.poster && absolute(origin, memory.poster),
  });

/**
 * Everything the app keeps of attendee `attendee`, for their download (GET
 * /api/attendees/me/export, decision 215): who they are, their memories with their files' URLs,
 * the questions they asked, their votes, poll answers and reports. A part of the app that keeps
 * something more of an attendee adds it here, as to `ERASERS` above.
 */
export async function exportAttendee(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  attendee: Attendee,
): Promise<AttendeeExport> {
  const [joinedAt, memories, asked, pollAnswers, reports] = await Promise.all([
    findAttendeeJoinedAt(deps.db, attendee.id),
    memoriesOf(deps, attendee.id),
    questionsOfAttendee(deps, attendee.id),
    pollAnswersOf(deps, attendee.id),
    reportsOf(deps, attendee.id),
  ]);
  return {
    exportedAt: deps.clock.now().toISOString(),
    attendee: { id: attendee.id, username: attendee.username, joinedAt: joinedAt ?? null },
    memories: memories.map(withUrls(deps.config.publicUrl)),
    questions: asked.questions,
    votes: asked.votes,
    pollAnswers,
    reports,
  };
}

/**
 * The files of attendee `attendee`'s memories, whatever their status, as one ZIP made as it is
 * sent: the admin's archive of every memory, of theirs alone (decision 215).
 */
export function attendeeArchive(
  deps: Pick<AppDeps, 'db' | 'media'>,
  attendee: Attendee,
  log: FastifyBaseLogger,
): Promise<{ archive: Readable; size: { files: number; bytes: number } }> {
  return memoriesArchive(deps, log, { ownerId: attendee.id });
}
