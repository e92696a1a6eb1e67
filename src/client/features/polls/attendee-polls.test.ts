import { describe, expect, it } from 'vitest';
import { pollFixture } from '../../../../tests/support/poll-fixture.ts';
// eslint-disable-next-line no-restricted-imports -- A test reads the catalogs as written; the app never does.
import { messagesIn } from '../../../shared/i18n/catalogs.ts';
import type { Translate } from '../../i18n/language.ts';
import {
  answerOf,
  attendeePolls,
  draftOf,
  moveInRanking,
  ownAnswerText,
  quizVerdict,
  wordsProblem,
} from './attendee-polls.ts';

const english = messagesIn('en');
const t: Translate = (id, values) => english.format(id, values);

const three = [
  { id: 'a', text: 'Alpha' },
  { id: 'b', text: 'Beta' },
  { id: 'c', text: 'Gamma' },
];

describe('the polls an attendee sees', () => {
  it('leaves drafts out and lists the open ones first, the newest first in each', () => {
    const polls = [
      pollFixture(1, { state: 'closed' }),
      pollFixture(2),
      pollFixture(3, { state: 'draft' }),
      pollFixture(4, { state: 'closed' }),
      pollFixture(5),
    ];
    expect(attendeePolls(polls).map((poll) => poll.title)).toEqual([
      'Poll 5?',
      'Poll 2?',
      'Poll 4?',
      'Poll 1?',
    ]);
  });
});

describe('the answer form', () => {
  it('starts from nothing, or from the attendee’s own answer when they change it', () => {
    const ranking = pollFixture(1, { type: 'ranking', options: three });
    expect(draftOf(ranking).ranking).toEqual(['a', 'b', 'c']);
    expect(draftOf(ranking, { ranking: ['c', 'a', 'b'] }).ranking).toEqual(['c', 'a', 'b']);
    // An option the poll no longer has is dropped, one it lacks goes last.
    expect(draftOf(ranking, { ranking: ['x', 'b'] }).ranking).toEqual(['b', 'a', 'c']);
    const cloud = pollFixture(2, { type: 'wordcloud', options: [] });
    expect(draftOf(cloud, { text: 'rust, go' }).words).toEqual(['rust', 'go', '']);
    expect(draftOf(cloud).words).toEqual(['', '', '']);
  });

  it('sends what each type asks, once it is complete', () => {
    const single = pollFixture(1, { options: three });
    expect(answerOf(single, draftOf(single))).toBeNull();
    expect(answerOf(single, { ...draftOf(single), optionIds: ['b'] })).toEqual({
      optionIds: ['b'],
    });
    const multiple = pollFixture(2, { type: 'multiple', options: three });
    expect(answerOf(multiple, { ...draftOf(multiple), optionIds: ['a', 'c'] })).toEqual({
      optionIds: ['a', 'c'],
    });
    const rating = pollFixture(3, { type: 'rating', options: [], maxRating: 5 });
    expect(answerOf(rating, { ...draftOf(rating), rating: 6 })).toBeNull();
    expect(answerOf(rating, { ...draftOf(rating), rating: 4 })).toEqual({ rating: 4 });
    const cloud = pollFixture(4, { type: 'wordcloud', options: [] });
    expect(answerOf(cloud, { ...draftOf(cloud), words: [' rust ', '', 'type safety'] })).toEqual({
      text: 'rust, type safety',
    });
    expect(answerOf(cloud, { ...draftOf(cloud), words: ['a, b', '', ''] })).toBeNull();
    expect(answerOf(cloud, draftOf(cloud))).toBeNull();
    const open = pollFixture(5, { type: 'open', options: [] });
    expect(answerOf(open, { ...draftOf(open), text: '   ' })).toBeNull();
    expect(answerOf(open, { ...draftOf(open), text: ' More demos ' })).toEqual({
      text: 'More demos',
    });
    expect(answerOf(open, { ...draftOf(open), text: 'x'.repeat(501) })).toBeNull();
    const ranking = pollFixture(6, { type: 'ranking', options: three });
    expect(answerOf(ranking, draftOf(ranking))).toEqual({ ranking: ['a', 'b', 'c'] });
  });

  it('says what is wrong with the word boxes', () => {
    expect(wordsProblem(['rust', '', ''])).toBeNull();
    const said = (words: string[]) => {
      const problem = wordsProblem(words);
      return problem && english.format(problem.id, problem.values);
    };
    expect(said(['rust; go', '', ''])).toMatch(/without commas/);
    expect(said(['x'.repeat(41), '', ''])).toMatch(/At most 40/);
  });

  it('moves an option up or down, never out of the list', () => {
    expect(moveInRanking(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveInRanking(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveInRanking(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveInRanking(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('a closed quiz’s verdict', () => {
  const quiz = (fields = {}) =>
    pollFixture(1, {
      type: 'quiz',
      options: three,
      state: 'closed',
      results: {
        options: three.map(({ id }) => ({ id, count: 0 })),
        correctOptionIds: ['a', 'c'],
      },
      ...fields,
    });

  it('is right only for exactly the right options', () => {
    expect(quizVerdict(quiz(), { optionIds: ['c', 'a'] })).toBe('right');
    expect(quizVerdict(quiz(), { optionIds: ['a'] })).toBe('wrong');
    expect(quizVerdict(quiz(), { optionIds: ['a', 'b', 'c'] })).toBe('wrong');
  });

  it('is none while the right options are unknown or nothing was answered', () => {
    expect(
      quizVerdict(quiz({ state: 'open', results: { options: [] } }), { optionIds: ['a'] }),
    ).toBeNull();
    expect(quizVerdict(quiz(), undefined)).toBeNull();
  });
});

describe('the attendee’s answer in words', () => {
  it('names the options, the rating, the order or the text', () => {
    const poll = pollFixture(1, { options: three, maxRating: 7 });
    expect(ownAnswerText(poll, { optionIds: ['a', 'c'] }, t)).toBe('Alpha, Gamma');
    expect(ownAnswerText(poll, { rating: 6 }, t)).toBe('6 of 7');
    expect(ownAnswerText(poll, { ranking: ['b', 'a', 'c'] }, t)).toBe(
      '1. Beta  2. Alpha  3. Gamma',
    );
    expect(ownAnswerText(poll, { text: 'Hello' }, t)).toBe('Hello');
  });
});
