import { createHmac, randomInt } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { JoinChallenge, JoinProof } from '../../shared/schemas/attendee.ts';
import type { Clock } from '../lib/clock.ts';

/** The key-derivation function of every challenge: PBKDF2-SHA-256, native in every browser. */
export const PROOF_ALGORITHM = 'PBKDF2/SHA-256';
/** PBKDF2 iterations of one try: a few milliseconds, so a try's overhead is nothing beside it. */
const ITERATIONS_PER_TRY = 5_000;
/** How long a challenge may be solved and used: a person typing their name, and then some. */
const CHALLENGE_TTL_MS = 10 * 60_000;
/** Demand is measured over a sliding minute. */
const WINDOW_MS = 60_000;

export interface JoinPricing {
  /** Joins a minute per address that cost nothing (`JOIN_PROOF_FREE_PER_MINUTE`). */
  freePerMinute: number;
  /** PBKDF2 iterations a join costs at most (`JOIN_PROOF_MAX_WORK`). */
  maxWork: number;
}

/**
 * The work a join costs, in PBKDF2 iterations, when `demand` joins and challenges came from its
 * address in the last minute, this one included (decision 198): nothing within the free
 * allowance; past it, a twentieth of the maximum at first, rising with the demand to the
 * maximum at twice the free rate (30 more a minute by default), where it stays. A script pays
 * for every identity past the free ones; a phone at a venue's rush pays the maximum once.
 */
export function joinWork(pricing: JoinPricing, demand: number): number {
  const { freePerMinute, maxWork } = pricing;
  if (demand <= freePerMinute) return 0;
  const ramp = Math.max(freePerMinute, 10);
  const share = Math.min(1, (demand - freePerMinute) / ramp);
  return Math.max(Math.ceil(maxWork / 20), Math.round(maxWork * share));
}

/**
 * Joins and challenges per address over a sliding minute: the current minute's count plus the
 * previous minute's, weighted by how much of it the sliding minute still covers. Two numbers
 * an address; addresses quiet for two minutes are forgotten.
 */
export class AddressDemand {
  private readonly windows = new Map<
    string,
    { start: number; current: number; previous: number }
  >();
  private nextSweepAt = 0;

  constructor(private readonly clock: Clock) {}

  /** The demand of `address` in the sliding minute, as it stands now. */
  estimate(address: string): number {
    const now = this.clock.now().getTime();
    const window = this.windowOf(address, now);
    const previousWeight = 1 - (now - window.start) / WINDOW_MS;
    return window.current + window.previous * previousWeight;
  }

  /** Counts one join or challenge of `address`, and answers the demand with it. */
  add(address: string): number {
    const now = this.clock.now().getTime();
    this.sweep(now);
    const window = this.windowOf(address, now);
    window.current += 1;
    this.windows.set(address, window);
    return this.estimate(address);
  }

  get size(): number {
    return this.windows.size;
  }

  private windowOf(address: string, now: number) {
    const start = now - (now % WINDOW_MS);
    const held = this.windows.get(address);
    if (!held) return { start, current: 0, previous: 0 };
    if (held.start === start) return held;
    // A new minute: the last one becomes the previous (or nothing, after a quiet minute).
    const next = {
      start,
      current: 0,
      previous: held.start === start - WINDOW_MS ? held.current : 0,
    };
    this.windows.set(address, next);
    return next;
  }

  private sweep(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + WINDOW_MS;
    for (const [address, window] of this.windows) {
      if (window.start < now - 2 * WINDOW_MS) this.windows.delete(address);
    }
  }
}

/** Why a proof was not taken. */
export type ProofRefusal = 'expired' | 'invalid';

/**
 * Proofs of work for joining (decision 198): free joins within the allowance of an address,
 * challenges priced by the demand of the address past it, and the check of a solved one.
 * Challenges are ALTCHA v2 challenges in deterministic mode: the server picks the counter, so a
 * challenge costs its solver exactly the work priced, and checking a solution is one HMAC.
 */
export class JoinProofs {
  private readonly demand: AddressDemand;
  private readonly signatureSecret: string;
  private readonly keySecret: string;

  constructor(
    private readonly pricing: JoinPricing,
    private readonly clock: Clock,
    secret: string,
  ) {
    this.demand = new AddressDemand(clock);
    const derive = (purpose: string) =>
      createHmac('sha256', secret).update(`join-proof:${purpose}`).digest('base64url');
    this.signatureSecret = derive('challenge');
    this.keySecret = derive('key');
  }

  /** Takes a free join for `address` when its allowance has one left (and counts it). */
  takeFree(address: string): boolean {
    if (this.demand.estimate(address) + 1 > this.pricing.freePerMinute) return false;
    this.demand.add(address);
    return true;
  }

  /**
   * The work of the next join from `address`, priced by its demand (which it counts), or null
   * while its joins are free.
   */
  priceFor(address: string): number | null {
    if (this.demand.estimate(address) + 1 <= this.pricing.freePerMinute) return null;
    return joinWork(this.pricing, this.demand.add(address));
  }

  /** A challenge for the next join from `address` at its price, or null while joins are free. */
  async challengeFor(address: string): Promise<JoinChallenge | null> {
    const work = this.priceFor(address);
    return work === null ? null : this.challenge(work);
  }

  /** A challenge of `work` PBKDF2 iterations in all (exported for the benchmark's script). */
  async challenge(work: number): Promise<JoinChallenge> {
    const cost = Math.max(1, Math.min(ITERATIONS_PER_TRY, work));
    const tries = Math.max(1, Math.round(work / cost));
    // The counter a solver must reach, a little below the tries priced so no two are alike.
    const counter = tries - 1 - randomInt(0, Math.max(1, Math.ceil(tries / 10)));
    const challenge = await createChallenge({
      algorithm: PROOF_ALGORITHM,
      cost,
      counter: Math.max(0, counter),
      deriveKey,
      expiresAt: new Date(this.clock.now().getTime() + CHALLENGE_TTL_MS),
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySecret,
    });
    return challenge as JoinChallenge;
  }

  /** Checks a solved challenge: signed here, not expired, the key the counter derives. */
  async check(proof: JoinProof): Promise<ProofRefusal | null> {
    const expiresAt = proof.challenge.parameters.expiresAt;
    if (expiresAt !== undefined && expiresAt * 1000 < this.clock.now().getTime()) return 'expired';
    // Only challenges made here carry a key signature: checking one is an HMAC, never the
    // derivation (a forged proof costs the server nothing to refuse).
    if (!proof.challenge.parameters.keySignature) return 'invalid';
    const result = await verifySolution({
      challenge: proof.challenge,
      solution: proof.solution,
      deriveKey,
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySecret,
    });
    if (result.expired) return 'expired';
    return result.verified ? null : 'invalid';
  }
}
