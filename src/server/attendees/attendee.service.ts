import type { JoinProof } from '../../shared/schemas/attendee.ts';
import type { AppDeps } from '../deps.ts';
import { badRequest, conflict, proofRequired } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import { screenText } from '../moderation/screen.ts';
import { insertAttendee } from './attendee.repository.ts';
import type { JoinProofs } from './join-proof.ts';

/**
 * Joins `username` from `address` (its rate-limit key): free for the first joins of an address a
 * minute, past them only with a solved `proof` (428 without one, 400 for one that is not valid,
 * 409 for one that made an attendee already, decision 198); a name with a blocked word is a 422.
 * Answers the new attendee's token.
 */
export async function joinAttendee(
  deps: Pick<AppDeps, 'db' | 'clock' | 'callers' | 'settings'>,
  proofs: JoinProofs,
  address: string,
  join: { username: string; proof?: JoinProof | undefined },
): Promise<{ username: string; token: string }> {
  const { username, proof } = join;
  // A name with a blocked word is refused whatever the action (decision 236), before any puzzle.
  screenText(deps.settings.blockedWords, 'username', username);
  if (proof) {
    const refusal = await proofs.check(proof);
    if (refusal) throw badRequest('proof', refusal);
  } else if (!proofs.takeFree(address)) {
    throw proofRequired('proof');
  }
  const attendee = { id: newId(), username };
  const inserted = await insertAttendee(deps.db, {
    ...attendee,
    createdAt: deps.clock.now().toISOString(),
    proofNonce: proof?.challenge.parameters.nonce ?? null,
  });
  if (!inserted) throw conflict('proofUsed');
  return { username: attendee.username, token: await deps.callers.signAttendee(attendee) };
}
