/** The polls' visible texts, written once for the attendee's card and every results screen. */

/** "1 answer", "12 answers". */
export const answersText = (count: number): string =>
  `${count.toLocaleString()} ${count === 1 ? 'answer' : 'answers'}`;

export const POLL_TEXTS = {
  resultsHidden: 'Results are hidden',
  resultsHiddenDetail: 'They appear here when the speaker shows them.',
  noAnswersYet: 'No answers yet',
  yourAnswer: 'Your answer',
  you: 'You',
  correct: 'Correct',
  average: 'Average rating',
  outOf: (max: number) => `out of ${max}`,
  yourPlace: (place: number) => `Your #${place}`,
  timesSaid: (count: number) => `${count.toLocaleString()} ${count === 1 ? 'time' : 'times'}`,
  results: 'Results',
} as const;
