import {
  POLL_LIMITS,
  POLL_TYPES_WITH_OPTIONS,
  type Leaderboard,
  type Poll,
  type PollCreateRequest,
  type PollOption,
  type PollPatch,
  type PollResults,
  type PollState,
  type PollStats,
  type PollType,
  type PollVoteRequest,
  type PollsQuery,
} from '../../shared/schemas/poll.ts';
import type { Attendee, Caller, Moderator } from '../auth/callers.ts';
import { authorize, can } from '../auth/policies.ts';
import type { ExportedPollAnswer } from '../../shared/schemas/privacy.ts';
import type { AppDeps } from '../deps.ts';
import { conflict, invalid, notFound } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import { screenText } from '../moderation/screen.ts';
import type { ListView } from '../lists/list-route.ts';
import { pollsScope } from '../lists/poll-scopes.ts';
import { csvCell } from '../lib/csv-cell.ts';
import {
  type Answer,
  AnswerRefusal,
  WORD_KEY_PREFIX,
  answerOf,
  countChanges,
  fillerWordsOf,
  normaliseWord,
  quizPoints,
} from './poll-answers.ts';
import {
  type PollChanges,
  type StoredPoll,
  allPolls,
  deletePoll,
  findPoll,
  findPollShared,
  hideCount,
  insertPoll,
  leaderboard,
  listPolls,
  openAnswers,
  patchPoll,
  pollCounts,
  pollParticipation,
  pollsAnsweredBy,
  recordResponse,
  removeResponse,
  resetPoll,
  responsesOf,
  sessionSpeakerIds,
  setAnswerHidden,
} from './poll.repository.ts';

type PollDeps = Pick<AppDeps, 'db' | 'events' | 'clock' | 'settings'>;

/** Who sees a poll: its owner (the admin, its session's speakers) or everybody else. */
type Viewer = 'owner' | 'public';

/**
 * The speakers who run a session's polls (decision 220): its speakers; none for the event-wide
 * polls, which are the admin's. A session that does not exist is a 404.
 */
async function speakersOf(deps: Pick<AppDeps, 'db'>, sessionId: string | null) {
  if (sessionId === null) return [];
  const speakerIds = await sessionSpeakerIds(deps.db, sessionId);
  if (!speakerIds) throw notFound('session');
  return speakerIds;
}

/** A poll that exists, with the speakers who run it. */
async function pollWithOwners(deps: Pick<AppDeps, 'db'>, id: string) {
  const poll = await findPoll(deps.db, id.toLowerCase());
  if (!poll) throw notFound('poll');
  const speakerIds = (await sessionSpeakerIds(deps.db, poll.sessionId ?? '')) ?? [];
  return { poll, speakerIds: poll.sessionId === null ? [] : speakerIds };
}

/** A poll its caller runs (else a 403), or a 404. */
async function ownedPoll(deps: Pick<AppDeps, 'db'>, id: string, by: Caller) {
  const found = await pollWithOwners(deps, id);
  authorize(by, 'run poll', { speakerIds: found.speakerIds });
  return found;
}

const refused = (message: string) => invalid('poll', message);

/**
 * The options of a new or edited poll: 2 to 20 for the kinds that have them (none for the
 * others), their ids all given or all made (`1`, `2`, …), never twice the same.
 */
function optionsFor(type: PollType, given: PollCreateRequest['options']): PollOption[] {
  const options = given ?? [];
  if (!POLL_TYPES_WITH_OPTIONS.includes(type)) {
    if (options.length > 0) throw refused(`A ${type} poll has no options`);
    return [];
  }
  if (options.length < POLL_LIMITS.minOptions) {
    throw refused(`A poll needs at least ${POLL_LIMITS.minOptions} options`);
  }
  const named = options.filter((option) => option.id !== undefined).length;
  if (named !== 0 && named !== options.length) {
    throw refused('Give every option an id, or none');
  }
  const withIds = options.map((option, index) => ({
    id: option.id ?? String(index + 1),
    text: option.text,
  }));
  if (new Set(withIds.map((option) => option.id)).size !== withIds.length) {
    throw refused('Two options have the same id');
  }
  return withIds;
}

/** A quiz's right options: one or more of its own; nothing for another kind of poll. */
function correctOptionsFor(
  type: PollType,
  options: readonly PollOption[],
  given: readonly string[] | undefined,
): string[] | null {
  if (type !== 'quiz') {
    if (given !== undefined) throw refused('Only a quiz has right options');
    return null;
  }
  if (!given) throw refused('A quiz needs correctOptionIds: its right options');
  const ids = new Set(options.map((option) => option.id));
  const unique = [...new Set(given)];
  if (unique.some((id) => !ids.has(id))) throw refused('A right option is not one of the quiz’s');
  return unique;
}

/** The running counters of a poll, by key. */
async function countsByKey(deps: Pick<AppDeps, 'db'>, pollId: string) {
  const rows = await pollCounts(deps.db, pollId);
  return new Map(rows.map((row) => [row.key, row.count]));
}

/** A poll's results from its counters (never from its answers, but an open poll's list). */
async function resultsOf(
  deps: Pick<AppDeps, 'db'>,
  poll: StoredPoll,
  viewer: Viewer,
): Promise<PollResults> {
  switch (poll.type) {
    case 'single':
    case 'multiple':
    case 'quiz': {
      const counts = await countsByKey(deps, poll._id);
      const options = poll.options.map(({ id }) => ({ id, count: counts.get(id) ?? 0 }));
      // A quiz's right options are nobody's business but its owner's before it closes.
      const reveal = poll.type === 'quiz' && poll.state === 'closed' && poll.correctOptionIds;
      return reveal ? { options, correctOptionIds: reveal } : { options };
    }
    case 'ranking': {
      const points = await countsByKey(deps, poll._id);
      return { options: poll.options.map(({ id }) => ({ id, points: points.get(id) ?? 0 })) };
    }
    case 'rating': {
      const counts = await countsByKey(deps, poll._id);
      const perValue = Array.from(
        { length: poll.maxRating },
        (_, index) => counts.get(String(index + 1)) ?? 0,
      );
      const answers = perValue.reduce((sum, count) => sum + count, 0);
      const total = perValue.reduce((sum, count, index) => sum + count * (index + 1), 0);
      return {
        average: answers === 0 ? null : Math.round((total / answers) * 100) / 100,
        counts: perValue,
      };
    }
    case 'wordcloud': {
      const rows = await pollCounts(deps.db, poll._id, { limit: POLL_LIMITS.wordcloudResults });
      // Ties in the order of their text, the same on every database.
      const words = rows
        .filter((row) => row.key.startsWith(WORD_KEY_PREFIX))
        .map((row) => ({ text: row.key.slice(WORD_KEY_PREFIX.length), count: row.count }))
        .sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
      return { words };
    }
    case 'open': {
      const owner = viewer === 'owner';
      const answers = await openAnswers(deps.db, poll._id, owner, POLL_LIMITS.openResults);
      return {
        answers: answers.map(({ _id, text, hidden }) =>
          owner ? { _id, text, hidden } : { _id, text },
        ),
      };
    }
  }
}

/**
 * A poll as `viewer` sees it: results to its owner always, to everybody else only while they are
 * revealed; a quiz's right options to its owner, and to everybody once it is closed.
 */
export async function viewOf(
  deps: Pick<AppDeps, 'db'>,
  poll: StoredPoll,
  viewer: Viewer,
): Promise<Poll> {
  const owner = viewer === 'owner';
  const showResults = owner || poll.resultsVisible;
  return {
    _id: poll._id,
    sessionId: poll.sessionId,
    title: poll.title,
    type: poll.type,
    options: poll.options,
    maxRating: poll.maxRating,
    state: poll.state,
    resultsVisible: poll.resultsVisible,
    voters: poll.voters,
    results: showResults ? await resultsOf(deps, poll, viewer) : null,
    createdAt: poll.createdAt,
    ...(owner && poll.correctOptionIds ? { correctOptionIds: poll.correctOptionIds } : {}),
  };
}

const changed = (poll: StoredPoll) =>
  ({
    type: 'pollChanged',
    pollId: poll._id,
    sessionId: poll.sessionId,
    revision: poll.revision,
  }) as const;

/** A new poll, a draft, for a session (its speakers or the admin) or the event (the admin). */
export async function createPoll(
  deps: PollDeps,
  input: PollCreateRequest,
  by: Moderator,
): Promise<Poll> {
  const sessionId = input.sessionId?.toLowerCase() ?? null;
  authorize(by, 'run poll', { speakerIds: await speakersOf(deps, sessionId) });
  const options = optionsFor(input.type, input.options);
  const poll = await insertPoll(deps.db, {
    _id: newId(),
    sessionId,
    title: input.title,
    type: input.type,
    options,
    maxRating: input.type === 'rating' ? (input.maxRating ?? POLL_LIMITS.defaultMaxRating) : 5,
    resultsVisible: input.resultsVisible ?? false,
    createdAt: deps.clock.now().toISOString(),
    correctOptionIds: correctOptionsFor(input.type, options, input.correctOptionIds),
  });
  await deps.events.publish(changed(poll));
  return viewOf(deps, poll, 'owner');
}

/** The moves a poll's state may make: opened, closed, re-opened (its answers kept). */
const NEXT_STATES: Record<PollState, readonly PollState[]> = {
  draft: ['draft', 'open'],
  open: ['open', 'closed'],
  closed: ['closed', 'open'],
};

/**
 * Its owner's change of a poll: state and visibility at any time; title, options, rating range
 * and a quiz's right options while it is a draft (409 after).
 */
export async function changePoll(
  deps: PollDeps,
  id: string,
  patch: PollPatch,
  by: Moderator,
): Promise<Poll> {
  const { poll } = await ownedPoll(deps, id, by);
  const editsSetup =
    patch.title !== undefined ||
    patch.options !== undefined ||
    patch.maxRating !== undefined ||
    patch.correctOptionIds !== undefined;
  if (editsSetup && poll.state !== 'draft') throw conflict('pollNotDraft');
  if (patch.state && !NEXT_STATES[poll.state].includes(patch.state)) {
    throw conflict('pollState', poll.state, patch.state);
  }
  const changes: PollChanges = {
    state: patch.state,
    resultsVisible: patch.resultsVisible,
    title: patch.title,
  };
  if (patch.options !== undefined || patch.correctOptionIds !== undefined) {
    const options = patch.options ? optionsFor(poll.type, patch.options) : poll.options;
    changes.options = options;
    const correct = correctOptionsFor(
      poll.type,
      options,
      patch.correctOptionIds ?? poll.correctOptionIds ?? undefined,
    );
    if (correct) changes.correctOptionIds = correct;
  }
  if (patch.maxRating !== undefined && poll.type === 'rating') changes.maxRating = patch.maxRating;
  if (patch.state === 'open') changes.openedAt = deps.clock.now().toISOString();
  // Only from the state it was read in: a change made meanwhile is not overwritten.
  const after = await patchPoll(deps.db, poll._id, changes, [poll.state]);
  if (!after) throw conflict('pollChanged');
  await deps.events.publish(changed(after));
  return viewOf(deps, after, 'owner');
}

/** Starts a poll over: its answers removed, its state kept. */
export async function startPollOver(deps: PollDeps, id: string, by: Moderator): Promise<Poll> {
  const { poll } = await ownedPoll(deps, id, by);
  const after = await resetPoll(deps.db, poll._id, deps.clock.now().toISOString());
  if (!after) throw notFound('poll');
  await deps.events.publish(changed(after));
  return viewOf(deps, after, 'owner');
}

/** Deletes a poll with its answers; its watchers see it go. */
export async function removePoll(deps: PollDeps, id: string, by: Moderator): Promise<void> {
  const { poll, speakerIds } = await ownedPoll(deps, id, by);
  const removed = await deletePoll(deps.db, poll._id);
  if (!removed) throw notFound('poll');
  await deps.events.publish({
    type: 'pollDeleted',
    pollId: removed._id,
    sessionId: removed.sessionId,
    speakerIds,
  });
}

/** The event's languages, once the settings have them: their filler words are left out. */
function eventLanguages(settings: AppDeps['settings']): string[] | undefined {
  const languages = (settings.current as { languages?: unknown }).languages;
  if (!Array.isArray(languages)) return undefined;
  return languages.filter((code): code is string => typeof code === 'string');
}

/**
 * An attendee's answer to an open poll (409 when it is not open, 400 when the answer does not
 * fit): one response per attendee, a second replacing the first. The answer carries the poll as
 * the attendee sees it; watchers get it at most 4 times a second.
 */
export async function answerPoll(
  deps: PollDeps,
  id: string,
  request: PollVoteRequest,
  attendee: Attendee,
): Promise<Poll> {
  const poll = await findPollShared(deps.db, id.toLowerCase());
  if (!poll) throw notFound('poll');
  if (poll.state !== 'open') throw conflict('pollNotOpen');
  let answer: Answer;
  try {
    answer = answerOf(poll, request, {
      // Held or starred, a blocked word is left out; blocked, the answer is a 422 (decision 236).
      isBlocked: (word) => screenText(deps.settings.blockedWords, 'cloudWord', word).held,
      filler: fillerWordsOf(eventLanguages(deps.settings)),
    });
  } catch (error) {
    if (error instanceof AnswerRefusal) throw refused(error.message);
    throw error;
  }
  // An open answer with a blocked word: refused (422), starred, or hidden for the owners.
  const screened =
    answer.kind === 'text'
      ? screenText(deps.settings.blockedWords, 'pollAnswer', answer.text)
      : null;
  if (answer.kind === 'text' && screened) answer = { kind: 'text', text: screened.text };
  const now = deps.clock.now();
  const openedAt = poll.openedAt ? Date.parse(poll.openedAt) : now.getTime();
  const points =
    poll.type === 'quiz' && poll.correctOptionIds
      ? quizPoints(answer, poll.correctOptionIds, (now.getTime() - openedAt) / 1000)
      : 0;
  const result = await recordResponse(
    deps.db,
    {
      pollId: poll._id,
      attendeeId: attendee.id,
      id: newId(),
      username: attendee.username,
      answer: JSON.stringify(answer),
      answeredAt: now.toISOString(),
      points,
      // Open answers are moderated as questions are: held for the owner while that is on.
      hidden:
        answer.kind === 'text' && (deps.settings.current.moderateQuestions || !!screened?.held),
    },
    (earlier) => countChanges(earlier ? (JSON.parse(earlier) as Answer) : undefined, answer),
  );
  if (result === 'closed') throw conflict('pollNotOpen');
  if (!result) throw notFound('poll');
  // Answers written together tell the watchers once, of the revision they made together.
  if (result.tells) {
    await deps.events.publish({
      type: 'pollVoted',
      pollId: poll._id,
      sessionId: poll.sessionId,
      revision: result.poll.revision,
    });
  }
  // Answers written together share their poll, and its view is read once for them all.
  let view = answeredViews.get(result.poll);
  if (!view) {
    view = viewOf(deps, result.poll, 'public');
    answeredViews.set(result.poll, view);
  }
  return view;
}

/** The public view of a poll as answers written together left it, per poll they answered. */
const answeredViews = new WeakMap<StoredPoll, Promise<Poll>>();

/** The polls an erasure takes answers back from at a time. */
const ERASURE_PAGE = 100;

/**
 * Takes back every answer attendee `attendeeId` gave (their erasure, decision 214), whatever the
 * polls' states: each as a replaced answer is taken back, the counters, voters, word counts and
 * averages down by it in the poll's own transaction, their open answer and leaderboard place
 * gone; watchers get each poll's new results as after an answer. Answers how many were taken.
 */
export async function withdrawAnswersOf(deps: PollDeps, attendeeId: string): Promise<number> {
  let withdrawn = 0;
  for (;;) {
    // Each page starts from the first: those taken back are no longer listed.
    const pollIds = await pollsAnsweredBy(deps.db, attendeeId, { limit: ERASURE_PAGE });
    for (const pollId of pollIds) {
      const poll = await removeResponse(deps.db, pollId, attendeeId, (answer) =>
        countChanges(JSON.parse(answer) as Answer, undefined),
      );
      if (!poll) continue;
      withdrawn += 1;
      await deps.events.publish({
        type: 'pollVoted',
        pollId: poll._id,
        sessionId: poll.sessionId,
        revision: poll.revision,
      });
    }
    if (pollIds.length < ERASURE_PAGE) return withdrawn;
  }
}

/** An answer in words: the options' texts, in the order chosen or ranked. */
function exportedAnswer(poll: StoredPoll, answer: Answer) {
  const textOf = (id: string) => poll.options.find((option) => option.id === id)?.text ?? id;
  switch (answer.kind) {
    case 'options':
      return { options: answer.optionIds.map(textOf) };
    case 'ranking':
      return { ranking: answer.ranking.map(textOf) };
    case 'rating':
      return { rating: answer.rating };
    case 'words':
      return { words: answer.words };
    case 'text':
      return { text: answer.text };
  }
}

/**
 * Every answer attendee `attendeeId` gave, for their export (decision 215): the poll's title and
 * type, their answer in words (options' texts, a rating, their text, a ranking, the words of a
 * cloud as counted), when, and a closed quiz's points; by poll, oldest first.
 */
export async function pollAnswersOf(
  deps: Pick<AppDeps, 'db'>,
  attendeeId: string,
): Promise<ExportedPollAnswer[]> {
  const answers: ExportedPollAnswer[] = [];
  for (let after: string | undefined; ;) {
    const page = await responsesOf(deps.db, attendeeId, { limit: 500, after });
    for (const { poll, answer, answeredAt, points } of page) {
      answers.push({
        pollId: poll._id,
        title: poll.title,
        type: poll.type,
        answer: exportedAnswer(poll, JSON.parse(answer) as Answer),
        // A quiz's points tell whether it was right: only once it is closed, as its results.
        ...(poll.type === 'quiz' && poll.state === 'closed' ? { points } : {}),
        answeredAt,
      });
    }
    after = page.at(-1)?.poll._id;
    if (page.length < 500) return answers;
  }
}

/** An open answer hidden from (or shown again in) the results, by the poll's owner. */
export async function moderateAnswer(
  deps: PollDeps,
  id: string,
  answerId: string,
  hidden: boolean,
  by: Moderator,
): Promise<Poll> {
  const { poll } = await ownedPoll(deps, id, by);
  if (poll.type !== 'open') throw notFound('pollAnswer');
  const after = await setAnswerHidden(deps.db, poll._id, answerId.toLowerCase(), hidden);
  if (!after) throw notFound('pollAnswer');
  await deps.events.publish(changed(after));
  return viewOf(deps, after, 'owner');
}

/** A word removed from a word cloud by the poll's owner: gone now, and from later answers. */
export async function removeWord(
  deps: PollDeps,
  id: string,
  text: string,
  by: Moderator,
): Promise<Poll> {
  const { poll } = await ownedPoll(deps, id, by);
  if (poll.type !== 'wordcloud') throw refused('Only a word cloud has words to remove');
  const word = normaliseWord(text);
  if (word === '') throw refused('Name the word to remove');
  const after = await hideCount(deps.db, poll._id, `${WORD_KEY_PREFIX}${word}`);
  await deps.events.publish(changed(after));
  return viewOf(deps, after, 'owner');
}

/**
 * A quiz's leaderboard: to its owner at any time; to everybody else once it is closed and its
 * results revealed (before, it would tell who is right: 409). Drafts are their owner's (404).
 */
export async function quizLeaderboard(
  deps: PollDeps,
  id: string,
  caller: Caller,
): Promise<Leaderboard> {
  const { poll, speakerIds } = await pollWithOwners(deps, id);
  const owner = can(caller, 'run poll', { speakerIds });
  if (poll.state === 'draft' && !owner) throw notFound('poll');
  if (poll.type !== 'quiz') throw notFound('leaderboard');
  if (!owner && !(poll.state === 'closed' && poll.resultsVisible)) {
    throw conflict('leaderboardNotYet');
  }
  return { entries: await leaderboard(deps.db, poll._id, POLL_LIMITS.leaderboard) };
}

/**
 * The polls list a caller asks for (decision 101's one mechanism): one session's or the event's,
 * open and closed ones; drafts and hidden results to their owner too, who gets a view of their
 * own.
 */
export async function pollsView(
  deps: Pick<AppDeps, 'db'>,
  query: PollsQuery,
  caller: Caller,
): Promise<ListView> {
  const sessionId = query.sessionId?.toLowerCase() ?? null;
  const speakerIds =
    sessionId === null ? [] : ((await sessionSpeakerIds(deps.db, sessionId)) ?? []);
  const owner = can(caller, 'run poll', { speakerIds });
  return {
    topic: 'polls',
    scope: pollsScope(sessionId),
    key: JSON.stringify(['polls', sessionId, owner]),
    rows: async () => {
      const polls = await listPolls(deps.db, sessionId, owner);
      return Promise.all(polls.map((poll) => viewOf(deps, poll, owner ? 'owner' : 'public')));
    },
  };
}

/**
 * A poll as the sockets send it (decision 220): its public view (null for a draft, which only
 * its owners see) and its owners' view, with the speakers whose moderation rooms get the
 * latter. Undefined for a poll that is gone.
 */
export async function livePoll(deps: Pick<AppDeps, 'db'>, id: string) {
  const found = await findPoll(deps.db, id);
  if (!found) return undefined;
  const speakerIds =
    found.sessionId === null ? [] : ((await sessionSpeakerIds(deps.db, found.sessionId)) ?? []);
  const owner = await viewOf(deps, found, 'owner');
  // The owners' view carries every result: the public one differs when results are hidden, for
  // a quiz (its right options) and for open answers (the hidden ones).
  const samePublic =
    found.resultsVisible &&
    found.type !== 'quiz' &&
    found.type !== 'open' &&
    found.state !== 'draft';
  const shown =
    found.state === 'draft'
      ? null
      : samePublic
        ? { ...owner, results: owner.results }
        : await viewOf(deps, found, 'public');
  return { revision: found.revision, sessionId: found.sessionId, speakerIds, owner, shown };
}

/** A poll's results in words, for one CSV cell. */
function resultsText(poll: StoredPoll, results: PollResults): string {
  const textOf = new Map(poll.options.map((option) => [option.id, option.text]));
  if ('answers' in results) return results.answers.map((answer) => answer.text).join(' | ');
  if ('words' in results) return results.words.map((w) => `${w.text}: ${w.count}`).join(' | ');
  if ('average' in results) {
    const counts = results.counts.map((count, index) => `${index + 1}: ${count}`).join(' | ');
    return `average ${results.average ?? '-'} | ${counts}`;
  }
  if ('correctOptionIds' in results || poll.type !== 'ranking') {
    const choice = results as { options: { id: string; count: number }[] };
    const right = poll.correctOptionIds
      ? ` | right: ${poll.correctOptionIds.map((id) => textOf.get(id) ?? id).join(', ')}`
      : '';
    return `${choice.options.map((o) => `${textOf.get(o.id) ?? o.id}: ${o.count}`).join(' | ')}${right}`;
  }
  const ranking = results as { options: { id: string; points: number }[] };
  return ranking.options.map((o) => `${textOf.get(o.id) ?? o.id}: ${o.points} points`).join(' | ');
}

export const POLLS_CSV_HEADER = [
  'id',
  'createdAt',
  'sessionId',
  'title',
  'type',
  'state',
  'resultsVisible',
  'voters',
  'results',
];

/** Every poll with its results as CSV lines (the admin's), header first, formula-safe. */
export async function* pollsCsv(deps: Pick<AppDeps, 'db'>): AsyncGenerator<string> {
  yield `\uFEFF${POLLS_CSV_HEADER.join(',')}\r\n`;
  for await (const poll of allPolls(deps.db)) {
    const results = await resultsOf(deps, poll, 'public');
    yield `${[
      poll._id,
      poll.createdAt,
      poll.sessionId ?? '',
      poll.title,
      poll.type,
      poll.state,
      poll.resultsVisible,
      poll.voters,
      resultsText(poll, results),
    ]
      .map(csvCell)
      .join(',')}\r\n`;
  }
}

/** Participation for the admin's overview: voters per poll, distinct voters per session. */
export async function pollStats(deps: Pick<AppDeps, 'db'>): Promise<PollStats> {
  const { perPoll, perSession } = await pollParticipation(deps.db);
  return {
    perPoll: perPoll.map((poll) => ({
      pollId: poll.id,
      sessionId: poll.sessionId,
      title: poll.title,
      type: poll.type as PollType,
      voters: poll.voters,
    })),
    perSession,
  };
}
