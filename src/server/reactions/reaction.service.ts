import type { ReactionRequest } from '../../shared/schemas/reaction.ts';
import type { Attendee } from '../auth/callers.ts';
import type { AppDeps } from '../deps.ts';
import { conflict, invalid } from '../http/errors.ts';
import { findSession } from '../programme/programme.repository.ts';

/** Where a tap taken goes: this instance's sum of the taps of a short window. */
export interface ReactionTally {
  add(sessionId: string | null, emoji: string): void;
}

/**
 * One tap of a reaction (decision 237): one of the event's reactions (409 while they are off,
 * 400 for any other emoji), in a session of the programme (400 for an unknown one) or, without
 * `sessionId`, for the whole event. Nothing is stored: the tap is counted in this instance's
 * tally, whose sums (one `reacted` event a window, decision 245) the sockets of every instance
 * sum again and send to the session's watchers (everybody's for the event-wide ones).
 */
export async function react(
  deps: Pick<AppDeps, 'db' | 'settings'>,
  tally: ReactionTally,
  _attendee: Attendee,
  input: ReactionRequest,
): Promise<void> {
  const offered = deps.settings.current.reactions;
  if (offered.length === 0) throw conflict('reactionsOff');
  if (!offered.includes(input.emoji)) throw invalid('unknownReaction');
  let sessionId: string | null = null;
  if (input.sessionId !== undefined) {
    const session = await findSession(deps.db, input.sessionId.toLowerCase());
    if (!session) throw invalid('unknownSession');
    sessionId = session.id;
  }
  tally.add(sessionId, input.emoji);
}
