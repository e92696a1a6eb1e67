import type { AdminAuditEntry, AdminMediaQuery } from '../../shared/schemas/admin.ts';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { AdminStats } from '../../shared/schemas/settings.ts';
import type { AppDeps } from '../deps.ts';
import { newId } from '../lib/ids.ts';
import { attendeeCount } from '../attendees/attendee.repository.ts';
import { listMemories, memoriesPerHour, memoriesVersion } from '../memories/memory.repository.ts';
import { questionCounts, questionsPerSpeaker } from '../questions/question.repository.ts';
import { csvCell } from '../lib/csv-cell.ts';
import { speakerCount } from '../speakers/speaker.repository.ts';
import { approveMemory, deleteMemory } from '../memories/memory.service.ts';
import { pollStats } from '../polls/poll.service.ts';
import { insertAuditEntry, listAuditEntries } from './admin.repository.ts';

/** Who is acting: the admin of the token and the address the request came from. */
export interface Actor {
  username: string;
  ip: string;
}

const normaliseSearch = (search: string | undefined): string => search?.trim().toLowerCase() ?? '';

/** The name of one moderation page's answer: the same page and search share it. */
export const moderationView = (query: AdminMediaQuery): string =>
  JSON.stringify([
    'moderation',
    query.limit,
    query.before ?? null,
    normaliseSearch(query.search),
    query.status ?? null,
  ]);

/** Memories for moderation, newest first, optionally matching a search. */
export function listForModeration(db: AppDeps['db'], query: AdminMediaQuery): Promise<Memory[]> {
  const search = normaliseSearch(query.search);
  return listMemories(db, {
    limit: query.limit,
    before: query.before,
    search: search || undefined,
    status: query.status,
  });
}

/** The moderation log's columns beside the action: the row's id, who acted, on what, when. */
const auditedBy = (deps: Pick<AppDeps, 'clock'>, actor: Actor, targetId: string) => ({
  id: newId(),
  adminUsername: actor.username,
  targetId,
  createdAt: deps.clock.now().toISOString(),
});

/** What the moderation log keeps of a memory. */
const auditedMemory = ({ username, text, contentType, createdAt }: Memory) => ({
  username,
  text,
  contentType,
  createdAt,
});

/**
 * Approves a pending memory as the admin (or keeps a reported one, decision 216): published
 * everywhere at once, its reports dismissed, and the moderation log says who approved or kept
 * what and when (in the same transaction). Approving a published memory nobody reported is
 * harmless and logs nothing.
 */
export async function approveMemoryAsAdmin(
  deps: Pick<AppDeps, 'db' | 'events' | 'clock'>,
  id: string,
  actor: Actor,
): Promise<Memory | undefined> {
  return approveMemory(deps, id, async (trx, { memory, published, dismissedReports }) => {
    const details = { memory: auditedMemory(memory), ip: actor.ip, dismissedReports };
    await insertAuditEntry(trx, {
      ...auditedBy(deps, actor, id),
      // Keeping a published memory someone reported (decision 216).
      ...(published ? { action: 'memory.approve', details } : { action: 'memory.keep', details }),
    });
  });
}

/**
 * Deletes a memory and its files as the admin, writing who deleted what and when in the same
 * transaction: a deletion that cannot be logged does not happen, and a deletion that finds
 * nothing leaves no log row.
 */
export async function deleteMemoryAsAdmin(
  deps: Pick<AppDeps, 'db' | 'media' | 'events' | 'clock'>,
  id: string,
  actor: Actor,
): Promise<'deleted' | 'not-found'> {
  const deleted = await deleteMemory(deps, id, async (trx, { memory, mediaKeys }) => {
    await insertAuditEntry(trx, {
      ...auditedBy(deps, actor, id),
      action: 'memory.delete',
      details: { memory: auditedMemory(memory), mediaKeys, ip: actor.ip },
    });
  });
  return deleted ? 'deleted' : 'not-found';
}

/** The moderation log, newest first. */
export function recentDeletions(
  db: AppDeps['db'],
  query: { limit: number; before?: string | undefined },
): Promise<AdminAuditEntry[]> {
  return listAuditEntries(db, query);
}

/** The organiser's overview: how much there is of everything, per speaker and per hour. */
export async function adminStats(deps: Pick<AppDeps, 'db'>): Promise<AdminStats> {
  const [memories, questions, speakers, attendees, perSpeaker, perHour, polls] = await Promise.all([
    memoriesVersion(deps.db),
    questionCounts(deps.db),
    speakerCount(deps.db),
    attendeeCount(deps.db),
    questionsPerSpeaker(deps.db),
    memoriesPerHour(deps.db),
    pollStats(deps),
  ]);
  return {
    memories: memories.count,
    questions: questions.questions,
    pendingQuestions: questions.pending,
    speakers,
    attendees,
    votes: questions.votes,
    perSpeaker,
    memoriesPerHour: perHour,
    polls,
  };
}

/**
 * The overview as CSV for a sponsor report: one `section,name,value` table with the totals,
 * then per speaker their questions and votes, then memories per hour. Names are typed by
 * speakers, so every cell goes through the questions export's neutralising of formulas.
 */
export function statsCsv(stats: AdminStats): string {
  const rows: (string | number)[][] = [
    ['section', 'name', 'questions', 'votes', 'value'],
    ['total', 'memories', '', '', stats.memories],
    ['total', 'questions', '', '', stats.questions],
    ['total', 'pending questions', '', '', stats.pendingQuestions],
    ['total', 'speakers', '', '', stats.speakers],
    ['total', 'attendees who joined', '', '', stats.attendees],
    ['total', 'votes', '', '', stats.votes],
    ...stats.perSpeaker.map((s) => ['speaker', s.name, s.questions, s.votes, '']),
    ...stats.memoriesPerHour.map((h) => ['memories per hour', h.hour, '', '', h.memories]),
    ...stats.polls.perPoll.map((p) => ['poll voters', p.title, '', '', p.voters]),
    ...stats.polls.perSession.map((p) => [
      'poll voters per session',
      p.sessionId ?? 'event-wide',
      '',
      '',
      p.voters,
    ]),
  ];
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
