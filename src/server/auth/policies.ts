import { moderationRoom } from '../../shared/events.ts';
import { cleanName } from '../../shared/names.ts';
import { type Forbidden, forbidden } from '../http/errors.ts';
import type { Caller, Callers } from './callers.ts';

/** The admin, or the speaker `speakerId` themselves. */
const moderates = (caller: Caller, speakerId: string): boolean =>
  caller.kind === 'admin' || (caller.kind === 'speaker' && caller.speakerId === speakerId);

/** The attendee `attendeeId` themselves. */
const isAttendee = (caller: Caller, attendeeId: string | null): boolean =>
  caller.kind === 'attendee' && caller.id === attendeeId;

/**
 * With an attendee token, a post goes out under the token's username only: a memory's
 * `username` (a form post or a resumable upload) and a question's `askerUsername` must be the
 * name the token was issued for. Both are compared as stored, cleaned of invisible characters
 * and trimmed (decision 194); letter case counts, as two attendees may differ only in it. Without
 * a token any name passes: the spec's calls send none.
 */
const postsAs = (caller: Caller, username: string): boolean =>
  caller.kind !== 'attendee' || cleanName(username).trim() === cleanName(caller.username).trim();

/** What each action is done to. */
interface Subjects {
  'post as': string;
  'ask as': string;
  /** An asker's own list of questions, by their username (decision 233). */
  'list own questions': string;
  /** A question: its speaker (null for a panel's) and its session's speakers (decision 223). */
  'moderate question': { speakerId: string | null; speakerIds?: readonly string[] };
  'export questions': { speakerId: string };
  'see moderated questions': { speakerId: string };
  'delete memory': { ownerId: string | null };
  'see memory': { status: string; ownerId: string | null };
  'continue upload': { attendeeId: string };
  'run poll': { speakerIds: readonly string[] };
}

type Action = keyof Subjects;

/**
 * A rule: whether a caller may do an action to a subject, and the 403 when not (its message by
 * name in `http/errors.ts`). A rule without one is only asked (`can`): its refusal hides the
 * subject behind the caller's 404.
 */
interface Rule<Subject> {
  allow(caller: Caller, subject: Subject): boolean;
  refusal?: Forbidden;
}

/**
 * Every ownership and role rule, by action; each action names what it is done to. Who may call
 * a route at all is its access (`auth/route-options.ts`); these decide what that caller may do
 * to this question, memory or upload.
 */
const RULES = {
  /** Post a memory (or start a resumable upload) under a username. */
  'post as': { allow: postsAs, refusal: 'uploadAsYourself' },
  /** Ask a question under an asker's name. */
  'ask as': { allow: postsAs, refusal: 'askAsYourself' },
  /** List one's own questions, the anonymous ones too: the attendee of that name, by token. */
  'list own questions': {
    allow: (caller, username) => caller.kind === 'attendee' && postsAs(caller, username),
    refusal: 'notYourQuestions',
  },
  /** Answer, pin, hide or publish a question: its speaker, its session's speakers, or the admin. */
  'moderate question': {
    allow: (caller, question) =>
      caller.kind === 'admin' ||
      (caller.kind === 'speaker' &&
        (caller.speakerId === question.speakerId ||
          (question.speakerIds ?? []).includes(caller.speakerId))),
    refusal: 'otherSpeakersQuestion',
  },
  /** Download a speaker's questions as CSV: that speaker, or the admin. */
  'export questions': {
    allow: (caller, speaker) => moderates(caller, speaker.speakerId),
    refusal: 'otherSpeakersExport',
  },
  /** See a speaker's pending and hidden questions on their dashboard. */
  'see moderated questions': {
    allow: (caller, speaker) => moderates(caller, speaker.speakerId),
  },
  /** Delete a memory: the attendee whose token posted it (decision 145). */
  'delete memory': {
    allow: (caller, memory) => isAttendee(caller, memory.ownerId),
    refusal: 'notYourMemory',
  },
  /** See a memory: anyone once published; before, its poster alone. */
  'see memory': {
    allow: (caller, memory) => memory.status === 'published' || isAttendee(caller, memory.ownerId),
  },
  /**
   * Prepare, open, close, reveal, reset, delete and moderate a poll, and see its drafts and
   * hidden results: the admin, or a speaker of its session (`speakerIds`: none for an
   * event-wide poll, which is the admin's alone) (decision 220).
   */
  'run poll': {
    allow: (caller, poll) =>
      caller.kind === 'admin' ||
      (caller.kind === 'speaker' && poll.speakerIds.includes(caller.speakerId)),
    refusal: 'notYourPoll',
  },
  /** Resume, ask about or abandon a resumable upload: the attendee who started it. */
  'continue upload': {
    allow: (caller, upload) => isAttendee(caller, upload.attendeeId),
  },
} satisfies { [A in Action]: Rule<Subjects[A]> };

/** The actions refused with a 403 of their own (the others are only asked). */
type Refusable = {
  [A in Action]: (typeof RULES)[A] extends { refusal: string } ? A : never;
}[Action];

const rules: { [A in Action]: Rule<Subjects[A]> } = RULES;

/** Whether `caller` may do `action` to `subject`. */
export const can = <A extends Action>(caller: Caller, action: A, subject: Subjects[A]): boolean =>
  rules[action].allow(caller, subject);

/**
 * Refuses an action the rules do not allow with the one authorization error: a 403 with the
 * action's own message. Where a refusal must not tell that the subject exists (somebody else's
 * memory awaiting approval, or upload), the caller asks `can` and answers its own 404.
 */
export function authorize<A extends Refusable>(
  caller: Caller,
  action: A,
  subject: Subjects[A],
): void {
  if (!rules[action].allow(caller, subject)) throw forbidden(RULES[action].refusal);
}

/**
 * The moderation room a caller may watch over a socket: the admin's (every question), a
 * speaker's own; none for anyone else.
 */
export function moderationRoomFor(caller: Caller): string | null {
  if (caller.kind === 'admin') return moderationRoom();
  if (caller.kind === 'speaker') return moderationRoom(caller.speakerId);
  return null;
}

/**
 * The moderation room a socket's token may watch (the policy's), from the same resolver as a
 * moderator's request: the admin's (every question) or a speaker's own; null for anything else.
 */
export const moderationRoomOf =
  (callers: Callers) =>
  async (token: string): Promise<string | null> => {
    const resolution = await callers.resolve(`Bearer ${token}`, 'moderator');
    return resolution.ok ? moderationRoomFor(resolution.caller) : null;
  };
