import type { Poll } from '../../../shared/schemas/poll.ts';

/*
 * What the attendee's poll screens show, pure (decision 229): which polls, in which order.
 */

/**
 * The polls an attendee sees: never a draft (the server sends none to them; an owner's view in
 * the same tab could), the open ones first, then the closed ones, the newest first in each.
 */
export function attendeePolls(polls: readonly Poll[]): Poll[] {
  const shown = polls.filter((poll) => poll.state !== 'draft');
  const newestFirst = (a: Poll, b: Poll) => (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
  return [
    ...shown.filter((poll) => poll.state === 'open').sort(newestFirst),
    ...shown.filter((poll) => poll.state === 'closed').sort(newestFirst),
  ];
}
