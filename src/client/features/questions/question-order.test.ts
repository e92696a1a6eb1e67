import { describe, expect, it } from 'vitest';
import { questionFixture } from '../../../../tests/support/question-fixture.ts';
import { arrangeQuestions, endOfLog, tailOfLog } from './question-order.ts';

const question = questionFixture;

const texts = (arranged: ReturnType<typeof arrangeQuestions>) => ({
  pinned: arranged.pinned?.question,
  open: arranged.open.map((q) => q.question),
  answered: arranged.answered.map((q) => q.question),
});

/** A room's log: one pinned, four open, two answered. */
const log = [
  question(1, { pinned: true }),
  ...[2, 3, 4, 5].map((n) => question(n)),
  question(6, { answered: true }),
  question(7, { answered: true }),
];

describe('the end of a room log', () => {
  const list = log;

  it('keeps the last questions as the log shows them: answered last, then open, then pinned', () => {
    const arranged = arrangeQuestions(list, 'chat');
    expect(texts(endOfLog(arranged, 3))).toEqual({
      pinned: undefined,
      open: ['Question 5?'],
      answered: ['Question 6?', 'Question 7?'],
    });
    expect(texts(endOfLog(arranged, 2))).toEqual({
      pinned: undefined,
      open: [],
      answered: ['Question 6?', 'Question 7?'],
    });
    expect(texts(endOfLog(arranged, 1))).toEqual({
      pinned: undefined,
      open: [],
      answered: ['Question 7?'],
    });
  });

  it('is the whole log when it is short enough', () => {
    const arranged = arrangeQuestions(list, 'chat');
    expect(texts(endOfLog(arranged, 7))).toEqual(texts(arranged));
    expect(texts(endOfLog(arranged, 20))).toEqual(texts(arranged));
  });
});

describe('the tail a room draws first', () => {
  const list = log;

  it('holds the questions of the end of the log, in the list’s order, arranged as the server drew them', () => {
    const tail = tailOfLog(list, 3);
    expect(tail.map((q) => q.question)).toEqual(['Question 5?', 'Question 6?', 'Question 7?']);
    expect(texts(arrangeQuestions(tail, 'chat'))).toEqual(
      texts(endOfLog(arrangeQuestions(list, 'chat'), 3)),
    );
  });

  it('is the list itself when it is short enough', () => {
    expect(tailOfLog(list, 7)).toBe(list);
    expect(tailOfLog(list, 20)).toBe(list);
  });
});

describe('the orders of a room', () => {
  const list = [
    question(1),
    question(2, { votes: 5 }),
    question(3, { pinned: true }),
    question(4),
    question(5, { answered: true }),
    question(6, { answered: true }),
  ];

  it('Chat keeps the order asked, Recent is newest first, Top most votes first', () => {
    expect(texts(arrangeQuestions(list, 'chat'))).toEqual({
      pinned: 'Question 3?',
      open: ['Question 1?', 'Question 2?', 'Question 4?'],
      answered: ['Question 5?', 'Question 6?'],
    });
    expect(texts(arrangeQuestions(list, 'recent'))).toEqual({
      pinned: 'Question 3?',
      open: ['Question 4?', 'Question 2?', 'Question 1?'],
      answered: ['Question 6?', 'Question 5?'],
    });
    expect(texts(arrangeQuestions(list, 'top')).open[0]).toBe('Question 2?');
  });
});
