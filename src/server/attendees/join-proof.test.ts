import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import { CLIENT_ID_HEADER } from '../../shared/constants.ts';
import {
  type JoinChallenge,
  type JoinProof,
  joinChallengeResponseSchema,
} from '../../shared/schemas/attendee.ts';
import { ManualClock } from '../../../tests/support/manual-clock.ts';
import { addSpeaker, askQuestion } from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { AddressDemand, joinWork } from './join-proof.ts';

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function challengeOf(baseUrl: string): Promise<JoinChallenge | null> {
  const response = await post(`${baseUrl}/api/attendees/challenge`, {});
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return joinChallengeResponseSchema.parse(await response.json()).challenge;
}

/** A challenge, where joins from here are not free. */
async function pricedChallenge(baseUrl: string): Promise<JoinChallenge> {
  const challenge = await challengeOf(baseUrl);
  if (!challenge) throw new Error('joins are free here');
  return challenge;
}

async function solve(challenge: JoinChallenge): Promise<JoinProof> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution');
  return { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } };
}

describe('the price of a join', () => {
  const pricing = { freePerMinute: 30, maxWork: 7_500_000 };

  it('is nothing within the free allowance, then rises with the demand to the maximum', () => {
    expect(joinWork(pricing, 1)).toBe(0);
    expect(joinWork(pricing, 30)).toBe(0);
    const prices = [31, 40, 45, 50, 60, 400, 5_000].map((demand) => joinWork(pricing, demand));
    expect(prices[0]).toBe(375_000);
    for (let i = 1; i < prices.length; i += 1) {
      expect(prices[i]).toBeGreaterThanOrEqual(prices[i - 1] ?? 0);
    }
    expect(prices[4]).toBe(7_500_000);
    expect(prices.at(-1)).toBe(7_500_000);
  });

  it('with no free joins, every join costs', () => {
    expect(joinWork({ freePerMinute: 0, maxWork: 1_000_000 }, 1)).toBe(100_000);
  });

  it('counts demand over a sliding minute, and forgets a quiet address', () => {
    const clock = new ManualClock('2026-11-27T10:00:00.000Z');
    const demand = new AddressDemand(clock);
    for (let i = 0; i < 60; i += 1) demand.add('a');
    expect(demand.estimate('a')).toBe(60);
    clock.advance(60_000);
    // The sliding minute still covers the whole previous minute at its start.
    expect(demand.estimate('a')).toBe(60);
    clock.advance(30_000);
    expect(demand.estimate('a')).toBe(30);
    clock.advance(30_000);
    expect(demand.estimate('a')).toBe(0);
    clock.advance(3 * 60_000);
    demand.add('b');
    expect(demand.size).toBe(1);
  });
});

describe.each(testDatabases)('joining past the free allowance (%s)', (database) => {
  const clock = new ManualClock(Date.now());
  const t = useTestApp({
    database,
    clock,
    env: { JOIN_PROOF_FREE_PER_MINUTE: '3', JOIN_PROOF_MAX_WORK: '20000' },
  });
  const join = (username: string, proof?: JoinProof) =>
    post(`${t.url}/api/attendees`, { username, ...(proof && { proof }) });

  it('joins free up to the allowance, then asks for a proof of work, and takes a solved one once', async () => {
    expect(await challengeOf(t.url)).toBeNull();
    for (let i = 0; i < 3; i += 1) expect((await join(`free-${i}`)).status).toBe(201);
    const refused = await join('fourth');
    expect(refused.status).toBe(428);
    expect(await refused.json()).toMatchObject({ code: 'PROOF_REQUIRED' });

    const challenge = await challengeOf(t.url);
    expect(challenge?.parameters.algorithm).toBe('PBKDF2/SHA-256');
    if (!challenge) throw new Error('no challenge');
    const proof = await solve(challenge);
    const joined = await join('fourth', proof);
    expect(joined.status).toBe(201);
    expect(await joined.json()).toMatchObject({ username: 'fourth' });

    const replayed = await join('fifth', proof);
    expect(replayed.status).toBe(409);
    expect(await replayed.json()).toMatchObject({ code: 'PROOF_INVALID' });
  });

  it('refuses a forged, tampered or expired proof with a 400, and stores no attendee', async () => {
    const before = await t.app.deps.db
      .selectFrom('attendees')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const proof = await solve(await pricedChallenge(t.url));
    const forged = { ...proof, solution: { counter: 0, derivedKey: 'ab'.repeat(32) } };
    const cheaper = {
      ...proof,
      challenge: {
        ...proof.challenge,
        parameters: { ...proof.challenge.parameters, cost: 1 },
      },
    };
    const unsigned = {
      ...proof,
      challenge: {
        ...proof.challenge,
        parameters: { ...proof.challenge.parameters, keySignature: undefined },
      },
    };
    for (const bad of [forged, cheaper, unsigned]) {
      const response = await join('mallory', bad);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'PROOF_INVALID' });
    }
    const malformed = await join('mallory', { challenge: 'x', solution: 1 } as never);
    expect(malformed.status).toBe(400);
    clock.advance(11 * 60_000);
    const expired = await join('mallory', proof);
    expect(expired.status).toBe(400);
    expect(((await expired.json()) as { error: string }).error).toMatch(/expired/);
    const after = await t.app.deps.db
      .selectFrom('attendees')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('prices challenges by the demand: the faster they come, the more work each is', async () => {
    clock.advance(5 * 60_000);
    for (let i = 0; i < 3; i += 1) expect((await join(`again-${i}`)).status).toBe(201);
    const works: number[] = [];
    for (let i = 0; i < 14; i += 1) {
      const { challenge, solution } = await solve(await pricedChallenge(t.url));
      works.push(challenge.parameters.cost * (solution.counter + 1));
    }
    // A tenth of the maximum at first (the ramp is 10 past the 3 free), the maximum from the
    // tenth on, each within the tenth that makes no two challenges alike.
    expect(works[0]).toBe(2_000);
    expect(Math.min(...works.slice(10))).toBeGreaterThanOrEqual(15_000);
    expect(Math.max(...works)).toBeLessThanOrEqual(20_000);
    expect(works[5]).toBeGreaterThan(works[0] ?? Infinity);
  });
});

describe('one address minting identities to vote', () => {
  const t = useTestApp({ env: { QUESTIONS_PER_MINUTE: '600' } });

  it('gets its free joins a minute, and no more votes than that, with rotating client ids', async () => {
    const speaker = await addSpeaker(t.url, 'Grace Hopper');
    const question = await askQuestion(t.url, {
      speakerId: speaker._id,
      speakerName: speaker.name,
      question: 'Is this vote fair?',
      askerUsername: 'ada',
    });
    let votes = 0;
    const statuses: Record<number, number> = {};
    for (let i = 0; i < 300; i += 1) {
      const joined = await post(
        `${t.url}/api/attendees`,
        { username: `voter-${i}` },
        { [CLIENT_ID_HEADER]: `voter-${i}` },
      );
      statuses[joined.status] = (statuses[joined.status] ?? 0) + 1;
      if (joined.status !== 201) {
        await joined.arrayBuffer();
        continue;
      }
      const { token } = (await joined.json()) as { token: string };
      const vote = await fetch(`${t.url}/api/questions/${question._id}/vote`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}` },
      });
      await vote.arrayBuffer();
      if (vote.status === 200) votes += 1;
    }
    expect(statuses).toEqual({ 201: t.config.joinProof.freePerMinute, 428: 270 });
    expect(votes).toBe(t.config.joinProof.freePerMinute);
  });
});
