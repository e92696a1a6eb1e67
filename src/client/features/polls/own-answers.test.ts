import { describe, expect, it } from 'vitest';
import { pollFixture } from '../../../../tests/support/poll-fixture.ts';
import {
  ATTENDEES_KEPT,
  OWN_ANSWERS_KEPT,
  type OwnAnswers,
  ownAnswerOf,
  readOwnAnswers,
  resetAnswers,
  withOwnAnswer,
  withoutOwnAnswers,
} from './own-answers.ts';

const poll = pollFixture(1, { voters: 3 });

describe('the attendee’s own answers on the device', () => {
  it('keeps an answer per attendee and poll, the later replacing the earlier', () => {
    let all: OwnAnswers = {};
    all = withOwnAnswer(all, 'ada', poll._id, { optionIds: ['1'] }, 1);
    all = withOwnAnswer(all, 'ada', poll._id, { optionIds: ['2'] }, 2);
    all = withOwnAnswer(all, 'bob', poll._id, { optionIds: ['1'] }, 3);
    expect(ownAnswerOf(all, 'ada', poll)).toEqual({ optionIds: ['2'] });
    expect(ownAnswerOf(all, 'bob', poll)).toEqual({ optionIds: ['1'] });
    // Another attendee on the same phone has answered nothing.
    expect(ownAnswerOf(all, 'cyd', poll)).toBeUndefined();
    expect(ownAnswerOf(all, undefined, poll)).toBeUndefined();
  });

  it('keeps the newest answers and attendees only', () => {
    let all: OwnAnswers = {};
    for (let n = 0; n < OWN_ANSWERS_KEPT + 5; n += 1) {
      all = withOwnAnswer(all, 'ada', `poll-${n}`, { rating: 1 }, n);
    }
    expect(Object.keys(all.ada ?? {})).toHaveLength(OWN_ANSWERS_KEPT);
    expect(all.ada?.['poll-0']).toBeUndefined();
    for (let n = 0; n < ATTENDEES_KEPT + 2; n += 1) {
      all = withOwnAnswer(all, `someone-${n}`, 'p', { rating: 1 }, 1_000 + n);
    }
    expect(Object.keys(all)).toHaveLength(ATTENDEES_KEPT);
    expect(all.ada).toBeUndefined();
  });

  it('forgets an answer once its poll has no voter left (reset), and only then', () => {
    const all = withOwnAnswer({}, 'ada', poll._id, { optionIds: ['1'] }, 1);
    const reset = { ...poll, voters: 0 };
    expect(ownAnswerOf(all, 'ada', reset)).toBeUndefined();
    expect(resetAnswers(all, 'ada', [reset, pollFixture(2, { voters: 0 })])).toEqual([poll._id]);
    expect(resetAnswers(all, 'ada', [poll])).toEqual([]);
    const forgotten = withoutOwnAnswers(all, 'ada', [poll._id]);
    expect(forgotten.ada).toEqual({});
    expect(withoutOwnAnswers(forgotten, 'ada', [poll._id])).toBe(forgotten);
  });

  it('reads what storage holds safely: anything that does not parse is none', () => {
    const kept = withOwnAnswer({}, 'ada', poll._id, { text: 'hi' }, 1);
    expect(readOwnAnswers(JSON.stringify(kept))).toEqual(kept);
    expect(readOwnAnswers('not json')).toEqual({});
    expect(readOwnAnswers(JSON.stringify({ ada: { p: { answer: { hack: 1 }, at: 1 } } }))).toEqual(
      {},
    );
    expect(readOwnAnswers(undefined)).toEqual({});
  });
});
