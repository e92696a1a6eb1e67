import { useLocalStorage } from '@mantine/hooks';
import { z } from 'zod';
import { STORAGE_KEYS } from '../../../shared/constants.ts';
import {
  type Poll,
  type PollVoteRequest,
  pollVoteRequestSchema,
} from '../../../shared/schemas/poll.ts';
import { attendeeIdOf, useAttendeeToken } from '../../lib/attendee-token.ts';

/*
 * The attendee's own answers, kept on the device (decision 229): the API has no "my answer"
 * read, and a phone that reloads must still show what its attendee answered. Kept by attendee
 * (the token's id: another attendee on the same phone has answered nothing) and by poll.
 */

/** One answer kept: what was sent, and when (the newest are kept). */
export interface OwnAnswer {
  answer: PollVoteRequest;
  at: number;
}

/** Every attendee's answers on this device: attendee id, then poll id. */
export type OwnAnswers = Record<string, Record<string, OwnAnswer>>;

/** Answers kept per attendee, and attendees kept: the newest of each. */
export const OWN_ANSWERS_KEPT = 300;
export const ATTENDEES_KEPT = 4;

const ownAnswersSchema = z.record(
  z.string(),
  z.record(z.string(), z.object({ answer: pollVoteRequestSchema, at: z.number() })),
);

/** What local storage holds, read safely: anything that does not parse is none. */
export function readOwnAnswers(text: string | undefined): OwnAnswers {
  if (!text) return {};
  try {
    const parsed = ownAnswersSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

const newestOf = (entries: Record<string, OwnAnswer>): number =>
  Math.max(0, ...Object.values(entries).map((entry) => entry.at));

/** `all` with `answer` kept for the attendee and poll (replacing an earlier one), trimmed. */
export function withOwnAnswer(
  all: OwnAnswers,
  attendee: string,
  pollId: string,
  answer: PollVoteRequest,
  at: number,
): OwnAnswers {
  const own = Object.entries({ ...all[attendee], [pollId]: { answer, at } })
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, OWN_ANSWERS_KEPT);
  const attendees = Object.entries({ ...all, [attendee]: Object.fromEntries(own) })
    .sort(([, a], [, b]) => newestOf(b) - newestOf(a))
    .slice(0, ATTENDEES_KEPT);
  return Object.fromEntries(attendees);
}

/** `all` without the attendee's answers to `pollIds`; `all` itself when it held none of them. */
export function withoutOwnAnswers(
  all: OwnAnswers,
  attendee: string,
  pollIds: readonly string[],
): OwnAnswers {
  const own = all[attendee];
  if (!own || !pollIds.some((id) => id in own)) return all;
  const rest = Object.fromEntries(Object.entries(own).filter(([id]) => !pollIds.includes(id)));
  return { ...all, [attendee]: rest };
}

/**
 * A poll whose answers are gone: no voter left while the device holds an answer to it. Our
 * answer counts while it stands, so nobody may be left only once the poll was reset (or the
 * attendee's data erased). A poll made again is a new poll, with an id nothing is kept under.
 */
export const wasReset = (poll: Poll): boolean => poll.voters === 0;

/** The polls among `polls` whose kept answer is gone with a reset. */
export function resetAnswers(
  all: OwnAnswers,
  attendee: string | undefined,
  polls: readonly Poll[],
): string[] {
  const own = attendee ? all[attendee] : undefined;
  if (!own) return [];
  return polls.filter((poll) => poll._id in own && wasReset(poll)).map((poll) => poll._id);
}

/** The attendee's answer to `poll`, unless the poll was reset since. */
export function ownAnswerOf(
  all: OwnAnswers,
  attendee: string | undefined,
  poll: Poll,
): PollVoteRequest | undefined {
  if (!attendee || wasReset(poll)) return undefined;
  return all[attendee]?.[poll._id]?.answer;
}

/**
 * The attendee's answers on this device, following the attendee token (a new attendee starts
 * with none) and every tab (an answer given in one shows in the others).
 */
export function useOwnAnswers() {
  const [token] = useAttendeeToken();
  const attendee = attendeeIdOf(token);
  const [all, setAll] = useLocalStorage<OwnAnswers>({
    key: STORAGE_KEYS.pollAnswers,
    defaultValue: {},
    getInitialValueInEffect: false,
    serialize: (value) => JSON.stringify(value),
    deserialize: readOwnAnswers,
  });
  return {
    attendee,
    all,
    mineFor: (poll: Poll) => ownAnswerOf(all, attendee, poll),
    /** Keeps an answer the server took, for the attendee whose token sent it. */
    remember: (attendeeId: string, pollId: string, answer: PollVoteRequest) =>
      setAll((current) => withOwnAnswer(current, attendeeId, pollId, answer, Date.now())),
    /** Forgets the answers to polls that were reset. */
    forget: (pollIds: readonly string[]) => {
      if (!attendee || pollIds.length === 0) return;
      setAll((current) => withoutOwnAnswers(current, attendee, pollIds));
    },
  };
}
