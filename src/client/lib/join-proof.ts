import { solveChallenge, solveChallengeWorkers } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import type { JoinChallenge, JoinProof } from '../../shared/schemas/attendee.ts';

/** Workers solving at once: the phone's cores, at most four (the page and the rest keep one). */
const solvers = (): number => Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1));

/** Gives up on a challenge after this long; the join is then asked again. */
const SOLVE_TIMEOUT_MS = 60_000;

const newWorker = () =>
  new Worker(new URL('./join-proof.worker.ts', import.meta.url), {
    type: 'module',
    name: 'join-proof',
  });

/**
 * Solves the join's challenge (decision 198) in Web Workers, each trying its share of the
 * counters, or on the page when workers cannot start; null when it could not be solved.
 */
export async function solveJoinChallenge(challenge: JoinChallenge): Promise<JoinProof | null> {
  let solution: { counter: number; derivedKey: string } | null;
  try {
    solution = await solveChallengeWorkers({
      challenge,
      concurrency: solvers(),
      createWorker: newWorker,
      timeout: SOLVE_TIMEOUT_MS,
    });
  } catch {
    solution = await solveChallenge({ challenge, deriveKey, timeout: SOLVE_TIMEOUT_MS });
  }
  return solution
    ? { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } }
    : null;
}
