import type { ReactionRequest } from '../../shared/schemas/reaction.ts';
import type { Attendee } from '../auth/callers.ts';
import type { AppDeps } from '../deps.ts';
import { conflict, invalid } from '../http/errors.ts';
import { findSession } from '../programme/programme.repository.ts';

/**
 * One tap of a reaction (decision 237): one of the event's reactions (409 while they are off,
 * 400 for any other emoji), in a session of the programme (400 for an unknown one) or, without
 * `sessionId`, for the whole event. Nothing is stored: one `reacted` event, which the sockets of
 * every instance sum over a short window and send to the session's watchers (everybody's for
 * the event-wide ones).
 */
export async function react(
  deps: Pick<AppDeps, 'db' | 'events' | 'settings'>,
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
  await deps.events.publish({ type: 'reacted', sessionId, emoji: input.emoji });
}
