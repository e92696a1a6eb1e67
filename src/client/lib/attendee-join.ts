import { API_PATHS } from '../../shared/routes.ts';
import {
  type JoinProof,
  attendeeResponseSchema,
  joinChallengeResponseSchema,
} from '../../shared/schemas/attendee.ts';
import { ApiError, apiCall } from './api-client.ts';
import { solveJoinChallenge } from './join-proof.ts';

let pending: Promise<string | undefined> | undefined;
let prepared: Promise<JoinProof | null> | undefined;

/** A proof of work for the next join: null while joins from here are free (decision 198). */
async function proveJoin(): Promise<JoinProof | null> {
  const { challenge } = await apiCall(joinChallengeResponseSchema, API_PATHS.attendeeChallenge, {
    method: 'POST',
    json: {},
  });
  return challenge ? solveJoinChallenge(challenge) : null;
}

/**
 * Starts on the join's proof of work while the name is typed: asked once, solved in the
 * background (nothing, while joins from this network are free).
 */
export function prepareJoin(): void {
  prepared ??= proveJoin().catch(() => null);
}

const join = (username: string, proof: JoinProof | null) =>
  apiCall(attendeeResponseSchema, API_PATHS.attendees, {
    method: 'POST',
    json: { username, ...(proof && { proof }) },
  });

/** A refusal that a (new) proof of work answers. */
const wantsProof = (error: unknown): boolean =>
  error instanceof ApiError && (error.code === 'PROOF_REQUIRED' || error.code === 'PROOF_INVALID');

/**
 * `POST /api/attendees`: a signed attendee token for a username, with the proof prepared while
 * the name was typed; when the server asks for one (or a new one), it is solved then and the join
 * sent again. Undefined when it failed; a name with a word the organisers block is thrown, its
 * `ApiError` saying so (code `BLOCKED_WORDS`), since asking again would not help.
 */
export function requestAttendeeToken(username: string): Promise<string | undefined> {
  pending ??= (async () => {
    const proof = (await prepared) ?? null;
    prepared = undefined;
    try {
      return await join(username, proof);
    } catch (error) {
      if (!wantsProof(error)) throw error;
      return join(username, await proveJoin());
    }
  })()
    .then(({ token }) => token)
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'BLOCKED_WORDS') throw error;
      return undefined;
    })
    .finally(() => {
      pending = undefined;
    });
  return pending;
}
