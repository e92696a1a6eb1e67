import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { AttendeeExport, Removed } from '../../shared/schemas/privacy.ts';
import { memoriesArchive } from '../memories/memories-archive.ts';
import type { Attendee } from '../auth/callers.ts';
import type { AppDeps } from '../deps.ts';
import { unauthorized, unavailable } from '../http/errors.ts';
import { memoriesOf } from '../memories/memory.service.ts';
import { reportsOf } from '../memories/report.service.ts';
import { pollAnswersOf } from '../polls/poll.service.ts';
import { pushSubscriptionsOf } from '../push/push.service.ts';
import { questionsOfAttendee } from '../questions/question.service.ts';
import { beginErasure, findAttendeeJoinedAt, finishErasure } from './attendee.repository.ts';
import { type RemovalRun, noneRemoved, removeAttendeeData } from './data-removal.ts';

type ErasureDeps = Pick<AppDeps, 'db' | 'media' | 'events' | 'clock' | 'settings'>;

/**
 * Erases attendee `attendee` (DELETE /api/attendees/me, decision 214). First marks them as being
 * erased, and tells every instance: their token is refused from then on, but to finish this.
 * Then every kind of their data goes (`removeAttendeeData`, as in a purge). When a file could not be deleted, everything
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

  // Every kind of their data goes the way a purge removes everyone's, each change published as
  // the admin's or the attendee's own would be, so open screens drop it at once.
  const run: RemovalRun = { deps, uploads, scope: { attendeeId }, log, left: 0 };
  const counts = noneRemoved();
  await removeAttendeeData(run, counts);
  if (run.left > 0) throw unavailable('erasureUnfinished');
  const removed: Removed = {
    memories: counts.memories,
    questions: counts.questions,
    votes: counts.votes,
    pollAnswers: counts.pollAnswers,
    // An unfinished upload's chunks count as a file of theirs.
    files: counts.files + counts.uploads,
  };

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
 * the questions they asked, their votes, poll answers and reports, and the push services' addresses
 * of their devices subscribed to announcements. A part of the app that keeps
 * something more of an attendee adds it here, as to `data-removal.ts`.
 */
export async function exportAttendee(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  attendee: Attendee,
): Promise<AttendeeExport> {
  const [joinedAt, memories, asked, pollAnswers, reports, pushSubscriptions] = await Promise.all([
    findAttendeeJoinedAt(deps.db, attendee.id),
    memoriesOf(deps, attendee.id),
    questionsOfAttendee(deps, attendee.id),
    pollAnswersOf(deps, attendee.id),
    reportsOf(deps, attendee.id),
    pushSubscriptionsOf(deps, attendee.id),
  ]);
  return {
    exportedAt: deps.clock.now().toISOString(),
    attendee: { id: attendee.id, username: attendee.username, joinedAt: joinedAt ?? null },
    memories: memories.map(withUrls(deps.config.publicUrl)),
    questions: asked.questions,
    votes: asked.votes,
    pollAnswers,
    reports,
    pushSubscriptions,
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
