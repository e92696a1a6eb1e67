import { describe, expect, it } from 'vitest';
import { pollFixture } from '../../../../tests/support/poll-fixture.ts';
import {
  choiceBars,
  cloudWords,
  isOwnText,
  ownPlaces,
  percentages,
  rankingBars,
  ratingFigures,
  wordEntries,
} from './results-figures.ts';

const three = [
  { id: 'a', text: 'Alpha' },
  { id: 'b', text: 'Beta' },
  { id: 'c', text: 'Gamma' },
];

describe('percentages', () => {
  it('adds up to exactly 100 when the counts make the whole', () => {
    expect(percentages([1, 1, 1], 3)).toEqual([34, 33, 33]);
    expect(percentages([2, 1], 3)).toEqual([67, 33]);
    expect(percentages([1, 1, 1, 1, 1, 1, 1], 7).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('rounds each share alone when people gave several answers', () => {
    expect(percentages([3, 3, 1], 4)).toEqual([75, 75, 25]);
  });

  it('is 0 % of nothing', () => {
    expect(percentages([0, 0], 0)).toEqual([0, 0]);
  });
});

describe('choice bars', () => {
  it('keeps the poll’s order, with shares of the people who answered', () => {
    const poll = pollFixture(1, {
      options: three,
      voters: 4,
      results: {
        options: [
          { id: 'a', count: 1 },
          { id: 'b', count: 3 },
          { id: 'c', count: 0 },
        ],
      },
    });
    expect(choiceBars(poll).map((bar) => [bar.id, bar.value, bar.percent, bar.width])).toEqual([
      ['a', 1, 25, 25],
      ['b', 3, 75, 75],
      ['c', 0, 0, 0],
    ]);
  });

  it('shares of a multiple choice add up to more than 100 %', () => {
    const poll = pollFixture(1, {
      type: 'multiple',
      options: three,
      voters: 2,
      results: {
        options: [
          { id: 'a', count: 2 },
          { id: 'b', count: 1 },
          { id: 'c', count: 1 },
        ],
      },
    });
    expect(choiceBars(poll).map((bar) => bar.percent)).toEqual([100, 50, 50]);
  });

  it('marks the reader’s options and a closed quiz’s right ones', () => {
    const poll = pollFixture(1, {
      type: 'quiz',
      options: three,
      state: 'closed',
      voters: 1,
      results: {
        options: [
          { id: 'a', count: 1 },
          { id: 'b', count: 0 },
          { id: 'c', count: 0 },
        ],
        correctOptionIds: ['b'],
      },
    });
    const bars = choiceBars(poll, { optionIds: ['a'] });
    expect(bars.map((bar) => [bar.id, bar.mine, bar.correct])).toEqual([
      ['a', true, false],
      ['b', false, true],
      ['c', false, false],
    ]);
  });

  it('counts an option missing from the results as none', () => {
    const poll = pollFixture(1, { options: three, voters: 0, results: { options: [] } });
    expect(choiceBars(poll).map((bar) => bar.value)).toEqual([0, 0, 0]);
  });
});

describe('rating', () => {
  it('has a bar per value, the average, and the reader’s own value', () => {
    const poll = pollFixture(1, {
      type: 'rating',
      options: [],
      maxRating: 4,
      voters: 4,
      results: { average: 3.25, counts: [0, 1, 1, 2] },
    });
    const figures = ratingFigures(poll, { rating: 4 });
    expect(figures.average).toBe(3.25);
    expect(figures.answers).toBe(4);
    expect(figures.bars.map((bar) => [bar.label, bar.value, bar.percent, bar.mine])).toEqual([
      ['1', 0, 0, false],
      ['2', 1, 25, false],
      ['3', 1, 25, false],
      ['4', 2, 50, true],
    ]);
  });
});

describe('ranking', () => {
  const poll = pollFixture(1, {
    type: 'ranking',
    options: three,
    voters: 2,
    results: {
      options: [
        { id: 'a', points: 2 },
        { id: 'b', points: 4 },
        { id: 'c', points: 2 },
      ],
    },
  });

  it('orders by points, ties in the poll’s order, each bar a share of the leader’s', () => {
    expect(rankingBars(poll).map((bar) => [bar.id, bar.value, bar.width])).toEqual([
      ['b', 4, 100],
      ['a', 2, 50],
      ['c', 2, 50],
    ]);
  });

  it('knows the place the reader gave each option', () => {
    expect([...ownPlaces({ ranking: ['c', 'a', 'b'] })]).toEqual([
      ['c', 1],
      ['a', 2],
      ['b', 3],
    ]);
    expect(ownPlaces({ rating: 3 }).size).toBe(0);
  });
});

describe('word cloud', () => {
  const words = [
    { text: 'rust', count: 9 },
    { text: 'go', count: 4 },
    { text: 'zig', count: 1 },
    { text: 'c', count: 1 },
  ];

  it('sizes words by the square root of their count, between the bounds', () => {
    const sizes = new Map(
      cloudWords(words, { min: 1, max: 3 }).map((word) => [word.text, word.size]),
    );
    expect(sizes.get('rust')).toBe(3);
    expect(sizes.get('zig')).toBe(1);
    expect(sizes.get('go')).toBeCloseTo(1 + 2 * Math.sqrt(3 / 8), 2);
  });

  it('puts the most frequent in the middle and the others around it', () => {
    const order = cloudWords(words, { min: 1, max: 3 }).map((word) => word.text);
    expect(order).toEqual(['zig', 'go', 'rust', 'c']);
    expect(order.indexOf('rust')).toBe(Math.floor(order.length / 2));
  });

  it('gives every word the middle size while each was said once', () => {
    const cloud = cloudWords(
      [
        { text: 'a', count: 1 },
        { text: 'b', count: 1 },
      ],
      { min: 1, max: 3 },
    );
    expect(cloud.map((word) => word.size)).toEqual([2, 2]);
  });

  it('marks the reader’s words as the server compares them', () => {
    const cloud = cloudWords(words, { min: 1, max: 2 }, { text: ' Rust ;ZIG\n' });
    expect(cloud.filter((word) => word.mine).map((word) => word.text)).toEqual(['zig', 'rust']);
  });

  it('splits an answer into entries at commas, semicolons and lines', () => {
    expect(wordEntries('a, b;c\n\n d ,')).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('open answers', () => {
  it('recognises the reader’s own text', () => {
    expect(isOwnText('More demos', { text: 'More demos ' })).toBe(true);
    expect(isOwnText('More demos', { text: 'Fewer demos' })).toBe(false);
    expect(isOwnText('More demos', undefined)).toBe(false);
  });
});
