import type { Poll } from '../../src/shared/schemas/poll.ts';

/** The session the fixtures' polls belong to, unless `fields` say otherwise. */
export const FIXTURE_SESSION_ID = '01a21ba3-0000-7000-8000-5e5510000000';

/**
 * A poll as the API answers it in everybody's view: an open single choice of two options with
 * its results shown and no answer yet; its id sorts by `n`, as the server's do.
 */
export const pollFixture = (n: number, fields: Partial<Poll> = {}): Poll => ({
  _id: `01a21ba3-0000-7000-8000-${String(n).padStart(12, '0')}`,
  sessionId: FIXTURE_SESSION_ID,
  title: `Poll ${n}?`,
  type: 'single',
  options: [
    { id: '1', text: 'Yes' },
    { id: '2', text: 'No' },
  ],
  maxRating: 5,
  state: 'open',
  resultsVisible: true,
  voters: 0,
  results: {
    options: [
      { id: '1', count: 0 },
      { id: '2', count: 0 },
    ],
  },
  createdAt: new Date(Date.UTC(2026, 10, 28, 9, 0, n)).toISOString(),
  ...fields,
});
