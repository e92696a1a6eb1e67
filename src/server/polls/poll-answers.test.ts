import { describe, expect, it } from 'vitest';
import {
  type PollShape,
  AnswerRefusal,
  answerOf,
  countChanges,
  fillerWordsOf,
  normaliseWord,
  quizPoints,
} from './poll-answers.ts';

const words = { isBlocked: (word: string) => word === 'blocked', filler: fillerWordsOf(undefined) };
const cloud: PollShape = { type: 'wordcloud', options: [], maxRating: 5 };
const ranking: PollShape = {
  type: 'ranking',
  options: ['a', 'b', 'c'].map((id) => ({ id, text: id })),
  maxRating: 5,
};

describe('normaliseWord', () => {
  it('folds width, case, invisible characters and spaces, without a locale', () => {
    expect(normaliseWord('  ＲＵＳＴ\u200b  Lang ')).toBe('rust lang');
    expect(normaliseWord('İSTANBUL')).toBe('i̇stanbul');
    expect(normaliseWord('Ｃａｆé')).toBe('café');
  });
});

describe('answerOf for a word cloud', () => {
  it('keeps up to 3 entries, and leaves out short, filler, blocked and repeated ones', () => {
    expect(answerOf(cloud, { text: 'The, ok, Rust' }, words)).toEqual({
      kind: 'words',
      words: ['rust'],
    });
    expect(answerOf(cloud, { text: 'blocked\nrust；RUST' }, words)).toEqual({
      kind: 'words',
      words: ['rust'],
    });
    expect(answerOf(cloud, { text: '🚀, 愛, très' }, words)).toEqual({
      kind: 'words',
      words: ['🚀', '愛'],
    });
    expect(() => answerOf(cloud, { text: 'a, b, c, d' }, words)).toThrow(AnswerRefusal);
  });

  it('takes the filler words of the event’s languages only, when they are named', () => {
    expect(fillerWordsOf(['fr']).has('très')).toBe(true);
    expect(fillerWordsOf(['pt-BR']).has('muito')).toBe(true);
    expect(fillerWordsOf(['fr']).has('with')).toBe(false);
  });
});

describe('countChanges', () => {
  it('gives Borda points, and takes a replaced ranking’s back', () => {
    const first = answerOf(ranking, { ranking: ['c', 'a', 'b'] }, words);
    expect(countChanges(undefined, first)).toEqual(
      new Map([
        ['c', 2],
        ['a', 1],
      ]),
    );
    const second = answerOf(ranking, { ranking: ['a', 'c', 'b'] }, words);
    expect(countChanges(first, second)).toEqual(
      new Map([
        ['a', 1],
        ['c', -1],
      ]),
    );
    // Taken back: every point it gave goes, and a last option's zero moves nothing.
    expect(countChanges(second, undefined)).toEqual(
      new Map([
        ['a', -2],
        ['c', -1],
      ]),
    );
  });
});

describe('quizPoints', () => {
  const right = ['a', 'c'];
  it('scores only the exact right set, 1000 at once and half after 30 s', () => {
    expect(quizPoints({ kind: 'options', optionIds: ['c', 'a'] }, right, 0)).toBe(1000);
    expect(quizPoints({ kind: 'options', optionIds: ['a', 'c'] }, right, 30)).toBe(500);
    expect(quizPoints({ kind: 'options', optionIds: ['a'] }, right, 0)).toBe(0);
    expect(quizPoints({ kind: 'options', optionIds: ['a', 'b', 'c'] }, right, 0)).toBe(0);
    expect(quizPoints({ kind: 'options', optionIds: ['a', 'c'] }, right, 1e9)).toBe(1);
  });
});
