import {
  DASHBOARD_QUESTIONS_MAX,
  DUPLICATE_QUESTION_WINDOW_MS,
} from '../../shared/qa-constants.ts';
import type { Speaker, SpeakerDashboard } from '../../shared/schemas/speaker.ts';
import type {
  AdminQuestionsQuery,
  Question,
  QuestionCreateRequest,
  QuestionPatch,
  QuestionsQuery,
} from '../../shared/schemas/question.ts';
import { publicQuestion } from '../../shared/schemas/question.ts';
import type { Attendee, Caller, Moderator } from '../auth/callers.ts';
import { authorize } from '../auth/policies.ts';
import type { AppDeps } from '../deps.ts';
import { conflict, invalid, notFound } from '../http/errors.ts';
import { csvCell } from '../lib/csv-cell.ts';
import { messagesIn } from '../../shared/i18n/catalogs.ts';
import { SOURCE_LANGUAGE } from '../../shared/i18n/languages.ts';
import type { MessageId } from '../../shared/i18n/messages.ts';
import { newId } from '../lib/ids.ts';
import { screenText } from '../moderation/screen.ts';
import type { ListView } from '../lists/list-route.ts';
import { dashboardScope, ownScope, questionsScope } from '../lists/question-scopes.ts';
import { currentSessionOf } from '../programme/programme.service.ts';
import { findSession, sessionSpeakerIds } from '../programme/programme.repository.ts';
import {
  type QuestionFilter,
  type VoteOf,
  allQuestions,
  deleteQuestion,
  findAskedSpeaker,
  findQuestion,
  insertQuestion,
  listForAdmin,
  listQuestions,
  listQuestionsAskedBy,
  listVotesOf,
  patchQuestion,
  recentTextsOf,
  setVote,
} from './question.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_UUIDV7_TIME = 2 ** 48 - 1;

/**
 * The id bound of a `since` value. Ids are UUIDv7: their first 48 bits are the creation time in
 * milliseconds, so "created after time T" is "id greater than the largest id of millisecond T",
 * and the lookup uses the same index as an id bound.
 */
export function idAfter(since: string): string {
  if (UUID.test(since)) return since.toLowerCase();
  const ms = Math.min(Math.max(Date.parse(since), 0), MAX_UUIDV7_TIME);
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-ffff-ffff-ffffffffffff`;
}

/** Two texts are the same question when they differ only in case and spacing. */
const sameText = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

type QuestionDeps = Pick<AppDeps, 'db' | 'events' | 'clock' | 'settings'>;

/** Whom a question is asked of: a speaker (in a session or not), or a session's panel. */
interface Asked {
  speaker: { _id: string; name: string } | null;
  session: { id: string; title: string } | null;
  /** Whose rooms and dashboards see it: its speaker and its session's speakers. */
  speakerIds: string[];
}

const unique = (ids: (string | null)[]): string[] => [
  ...new Set(ids.filter((id): id is string => id !== null)),
];

/**
 * Whom a request asks (decision 223). With `sessionId`: that session (an unknown one is a 400,
 * a cancelled one a 409), its panel as a whole or, with `speakerId`, one of its speakers (anyone
 * else is a 400). With `speakerId` alone, as the spec's call does: that speaker (404 when
 * unknown), in the session they are on now by the clock, if any.
 */
async function askedOf(
  deps: QuestionDeps,
  input: QuestionCreateRequest,
  now: Date,
): Promise<Asked> {
  const speakerId = input.speakerId?.toLowerCase();
  if (input.sessionId !== undefined) {
    const session = await findSession(deps.db, input.sessionId.toLowerCase());
    if (!session) throw invalid('unknownSession');
    if (session.cancelled) throw conflict('sessionCancelled');
    if (speakerId !== undefined && !session.speakerIds.includes(speakerId)) {
      throw invalid('notSessionSpeaker');
    }
    const speaker = speakerId === undefined ? null : await findAskedSpeaker(deps.db, speakerId);
    if (speakerId !== undefined && !speaker) throw invalid('notSessionSpeaker');
    return {
      speaker: speaker ?? null,
      session: { id: session.id, title: session.title },
      speakerIds: unique([speaker?._id ?? null, ...session.speakerIds]),
    };
  }
  if (speakerId === undefined) throw invalid('schema', 'Speaker is required', 'request');
  const speaker = await findAskedSpeaker(deps.db, speakerId);
  if (!speaker) throw notFound('speaker');
  const session = await currentSessionOf(deps, { speakerId: speaker._id }, now);
  return {
    speaker,
    session: session && { id: session._id, title: session.title },
    speakerIds: unique([speaker._id, ...(session?.speakerIds ?? [])]),
  };
}

/** Whose rooms and dashboards see a question: its speaker and its session's speakers. */
async function audienceOfQuestion(
  deps: Pick<AppDeps, 'db'>,
  question: Pick<Question, 'speakerId' | 'sessionId'>,
): Promise<string[]> {
  const sessionSpeakers = question.sessionId
    ? await sessionSpeakerIds(deps.db, question.sessionId)
    : [];
  return unique([question.speakerId, ...sessionSpeakers]);
}

/**
 * Stores a question for an existing speaker or a session's panel and pushes it at once to
 * everyone watching that speaker, that session and its speakers (and the all-questions views).
 * The stored speaker name is the speaker's own, whatever name the client sent along (the
 * session's title for its panel). With pre-moderation on it is pending: only the admin and its
 * speakers see it until it is published. The same text from the same asker to the same speaker
 * (or panel) within 10 minutes is a 409. With an attendee token the asker must be the token's
 * username (403).
 */
export async function askQuestion(
  deps: QuestionDeps,
  input: QuestionCreateRequest,
  caller: Caller,
): Promise<Question> {
  authorize(caller, 'ask as', input.askerUsername);
  const anonymous = input.anonymous === true;
  // Asked anonymously only while the organiser allows it; once asked so, it stays so whatever
  // the setting becomes (decision 233).
  if (anonymous && !deps.settings.current.allowAnonymousQuestions) throw invalid('anonymousOff');
  const attendee = caller.kind === 'attendee' ? caller : null;
  // A blocked word refuses it (422) before anything is looked up, holds it or stars it; in the
  // asker's name (one asked without a token names its asker itself) it refuses it.
  screenText(deps.settings.blockedWords, 'username', input.askerUsername);
  const screened = screenText(deps.settings.blockedWords, 'question', input.question);
  const now = deps.clock.now();
  const { speaker, session, speakerIds } = await askedOf(deps, input, now);
  const windowStart = idAfter(new Date(now.getTime() - DUPLICATE_QUESTION_WINDOW_MS).toISOString());
  const recent = await recentTextsOf(
    deps.db,
    speaker ? { speakerId: speaker._id } : { panelOf: session?.id ?? '' },
    { username: input.askerUsername, id: attendee?.id },
    windowStart,
  );
  const text = sameText(input.question);
  if (recent.some((earlier) => sameText(earlier) === text)) {
    throw conflict('duplicateQuestion');
  }
  const question = await insertQuestion(
    deps.db,
    {
      _id: newId(),
      speakerId: speaker?._id ?? null,
      speakerName: speaker?.name ?? session?.title ?? '',
      askerUsername: input.askerUsername,
      question: screened.text,
      createdAt: now.toISOString(),
      votes: 0,
      answered: false,
      pinned: false,
      status: deps.settings.current.moderateQuestions || screened.held ? 'pending' : 'published',
      sessionId: session?.id ?? null,
      anonymous,
      answer: null,
      answeredAt: null,
    },
    attendee?.id,
  );
  // Before the answer, so the asker's next poll already finds it. The event carries the name:
  // the list cache files the question under its asker's own list, and the sockets leave the
  // name out of everything they send but the admin's (decision 233). The answer goes to the
  // asker, who sent the name.
  await deps.events.publish({ type: 'questionCreated', question, speakerIds });
  return question;
}

/** A published question, or a 404 (pending and hidden ones cannot be voted on). */
async function publishedQuestion(deps: Pick<AppDeps, 'db'>, id: string): Promise<Question> {
  const found = await findQuestion(deps.db, id.toLowerCase());
  if (found?.question.status !== 'published') throw notFound('question');
  return found.question;
}

/**
 * An attendee's upvote, on or off: idempotent (one vote per attendee and question). The
 * answer carries the count at once; watchers get it through a coalesced `questionUpdated`.
 */
export async function vote(
  deps: QuestionDeps,
  questionId: string,
  attendee: Attendee,
  on: boolean,
): Promise<Question> {
  const id = (await publishedQuestion(deps, questionId))._id;
  const result = await setVote(deps.db, id, attendee.id, on, deps.clock.now().toISOString());
  if (!result) throw notFound('question');
  if (result.changed) {
    const { question, revision } = result.stored;
    const speakerIds = await audienceOfQuestion(deps, question);
    await deps.events.publish({ type: 'questionVoted', question, revision, speakerIds });
  }
  return publicQuestion(result.stored.question);
}

/**
 * A speaker's change to one of their questions or of their sessions' (or the admin's to any):
 * answered, pinned (one per session, or per speaker outside sessions: pinning unpins the other),
 * status, the written answer (decision 234: `answeredAt` is when it was last written; null
 * removes both). Another speaker's question is a 403. A speaker gets an anonymous question
 * without its asker's name, as everywhere (decision 233). An answer with a blocked word is
 * starred or refused by the organiser's action (decision 236).
 */
export async function changeQuestion(
  deps: QuestionDeps,
  questionId: string,
  patch: QuestionPatch,
  by: Moderator,
): Promise<Question> {
  const found = await findQuestion(deps.db, questionId.toLowerCase());
  if (!found) throw notFound('question');
  const speakerIds = await audienceOfQuestion(deps, found.question);
  authorize(by, 'moderate question', { speakerId: found.question.speakerId, speakerIds });
  // A written answer with a blocked word: starred, or refused (422) before anything changes.
  const answer =
    typeof patch.answer === 'string'
      ? { answer: screenText(deps.settings.blockedWords, 'answer', patch.answer).text }
      : {};
  const changed = await patchQuestion(
    deps.db,
    found.question._id,
    { ...patch, ...answer },
    deps.clock.now().toISOString(),
  );
  const [first] = changed;
  if (!first) throw notFound('question');
  // Pinning one question unpins the other of its session (or speaker): one event for each
  // question changed; the others share its session, or its speaker outside sessions.
  for (const { question, revision } of changed) {
    const audience = question.sessionId ? speakerIds : unique([question.speakerId]);
    await deps.events.publish({
      type: 'questionUpdated',
      question,
      revision,
      speakerIds: audience,
    });
  }
  return by.kind === 'admin' ? first.question : publicQuestion(first.question);
}

/** The admin deletes a question (and its votes); watchers see it go. */
export async function removeQuestion(deps: QuestionDeps, questionId: string): Promise<boolean> {
  const found = await findQuestion(deps.db, questionId.toLowerCase());
  if (!found) return false;
  const speakerIds = await audienceOfQuestion(deps, found.question);
  const removed = await deleteQuestion(deps.db, found.question._id);
  if (!removed) return false;
  const { _id, speakerId, askerUsername, sessionId, anonymous } = removed;
  await deps.events.publish({
    type: 'questionDeleted',
    question: { _id, speakerId, askerUsername, sessionId, anonymous },
    speakerIds,
  });
  return true;
}

/** Rows read at a time when an attendee's questions or votes are gone through. */
const ERASURE_PAGE = 100;

/**
 * Removes every question attendee `askerId` asked with their token, each as the admin removes
 * one (with the votes others gave it): watchers see each go. Answers how many went.
 */
export async function removeQuestionsAskedBy(deps: QuestionDeps, askerId: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const page = await listQuestionsAskedBy(deps.db, askerId, { limit: ERASURE_PAGE });
    for (const question of page) {
      if (await removeQuestion(deps, question._id)) removed += 1;
    }
    if (page.length < ERASURE_PAGE) return removed;
  }
}

/**
 * Takes back every vote attendee `attendeeId` gave: each question's count goes down as when they
 * take a vote back themselves, and watchers see the new count. Answers how many were taken back.
 */
export async function withdrawVotesOf(deps: QuestionDeps, attendeeId: string): Promise<number> {
  let withdrawn = 0;
  for (;;) {
    const page = await listVotesOf(deps.db, attendeeId, { limit: ERASURE_PAGE });
    const now = deps.clock.now().toISOString();
    for (const { questionId } of page) {
      const result = await setVote(deps.db, questionId, attendeeId, false, now);
      if (!result?.changed) continue;
      withdrawn += 1;
      const { question, revision } = result.stored;
      const speakerIds = await audienceOfQuestion(deps, question);
      await deps.events.publish({ type: 'questionVoted', question, revision, speakerIds });
    }
    if (page.length < ERASURE_PAGE) return withdrawn;
  }
}

/**
 * What attendee `attendeeId` put in the Q&A, for their export: the questions they asked with
 * their token, and the votes they gave, oldest first.
 */
export async function questionsOfAttendee(
  deps: Pick<AppDeps, 'db'>,
  attendeeId: string,
): Promise<{ questions: Question[]; votes: VoteOf[] }> {
  const questions: Question[] = [];
  for (let after: string | undefined; ;) {
    const page = await listQuestionsAskedBy(deps.db, attendeeId, { limit: 500, after });
    questions.push(...page);
    after = page.at(-1)?._id;
    if (page.length < 500) break;
  }
  const votes: VoteOf[] = [];
  for (let after: string | undefined; ;) {
    const page = await listVotesOf(deps.db, attendeeId, { limit: 500, after });
    votes.push(...page);
    after = page.at(-1)?.questionId;
    if (page.length < 500) break;
  }
  return { questions, votes };
}

/**
 * The published questions a poll asks for (by speaker, session or asker, recent or top), named by what it
 * asks: the same query, however it is spelt, shares one answer (decision 101).
 */
export function publishedQuestionsView(deps: Pick<AppDeps, 'db'>, query: QuestionsQuery): ListView {
  const { speakerId, sessionId, since, before, askerUsername, limit, sort } = query;
  // An asker's own list (`own`, with their token: the route's access checks it) holds their
  // anonymous questions, with their name; anybody's list of an asker holds only the questions
  // asked under that name (decision 233).
  const own = query.own === 'true' && askerUsername !== undefined;
  const filter: QuestionFilter = {
    speakerId: speakerId?.toLowerCase(),
    sessionId: sessionId?.toLowerCase(),
    askerUsername,
    named: askerUsername !== undefined && !own,
    after: since === undefined ? undefined : idAfter(since),
    before: before?.toLowerCase(),
    statuses: ['published'],
  };
  const key = JSON.stringify([
    'questions',
    filter.speakerId,
    filter.after,
    filter.before,
    filter.askerUsername,
    limit,
    sort,
    ...(filter.sessionId ? [filter.sessionId] : []),
    ...(own ? ['own'] : []),
  ]);
  return {
    topic: 'questions',
    scope: own
      ? ownScope(askerUsername)
      : questionsScope(filter.speakerId, filter.askerUsername, filter.sessionId),
    key,
    rows: async () => {
      const questions = await listQuestions(deps.db, filter, limit, sort);
      return own ? questions : questions.map(publicQuestion);
    },
  };
}

/**
 * A speaker's dashboard: the speaker with their latest questions, oldest first — those asked of
 * them and those of their sessions (each of a panel's speakers sees all of its questions,
 * decision 223); for the speaker (`moderated`), the pending and hidden ones too. One polled list
 * per speaker and view, forgotten by every change of those questions (`dashboardScope`).
 */
export const speakerDashboardView = (
  deps: Pick<AppDeps, 'db'>,
  speaker: Speaker,
  moderated: boolean,
): ListView => ({
  topic: 'questions',
  scope: dashboardScope(speaker._id),
  key: JSON.stringify(['dashboard', speaker._id, moderated]),
  rows: async (): Promise<SpeakerDashboard> => {
    const questions = await listQuestions(
      deps.db,
      {
        dashboardOf: speaker._id,
        statuses: moderated ? ['published', 'pending', 'hidden'] : ['published'],
      },
      DASHBOARD_QUESTIONS_MAX,
    );
    // Speakers never see who asked anonymously (decision 233).
    return { ...speaker, questions: questions.map(publicQuestion) };
  },
});

/** Every question, of every status, as the admin's moderation screen polls them. */
export const adminQuestionsView = (
  deps: Pick<AppDeps, 'db'>,
  query: AdminQuestionsQuery,
): ListView => ({
  topic: 'questions',
  scope: questionsScope(),
  key: JSON.stringify([
    'admin-questions',
    query.search?.toLowerCase(),
    query.status,
    query.flag,
    query.limit,
    query.before?.toLowerCase(),
  ]),
  rows: () => listForAdmin(deps.db, query),
});

/** The questions export's columns, by their names in the catalogs. */
const CSV_COLUMNS = [
  'csv.questionId',
  'csv.questionCreatedAt',
  'csv.questionSpeakerId',
  'csv.questionSpeakerName',
  'csv.questionAskerUsername',
  'csv.questionText',
  'csv.questionVotes',
  'csv.questionAnswered',
  'csv.questionPinned',
  'csv.questionStatus',
  'csv.questionAnonymous',
  'csv.questionAnswer',
  'csv.questionAnsweredAt',
] as const satisfies readonly MessageId[];

/** The questions export's header: in English, the console's language (`id`, `createdAt`, …). */
export const CSV_HEADER = CSV_COLUMNS.map((id) => messagesIn(SOURCE_LANGUAGE).format(id));

/**
 * Every question (of one speaker) as CSV lines, header first, read a page at a time. The asker
 * of an anonymous question is named for the admin (`asAdmin`) only (decision 233).
 */
export async function* questionsCsv(
  deps: Pick<AppDeps, 'db'>,
  { speakerId, asAdmin }: { speakerId?: string; asAdmin: boolean },
): AsyncGenerator<string> {
  // A byte-order mark, so spreadsheets read the text as UTF-8.
  yield `\uFEFF${CSV_HEADER.join(',')}\r\n`;
  for await (const stored of allQuestions(deps.db, speakerId)) {
    const q = asAdmin ? stored : publicQuestion(stored);
    yield `${[
      q._id,
      q.createdAt,
      q.speakerId ?? '',
      q.speakerName,
      q.askerUsername ?? '',
      q.question,
      q.votes,
      q.answered,
      q.pinned,
      q.status,
      q.anonymous,
      q.answer ?? '',
      q.answeredAt ?? '',
    ]
      .map(csvCell)
      .join(',')}\r\n`;
  }
}
