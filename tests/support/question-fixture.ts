import type { Question } from '../../src/shared/schemas/question.ts';

/** The speaker the fixtures' questions are for, unless `fields` say otherwise. */
export const FIXTURE_SPEAKER_ID = '01a21ba3-0000-7000-8000-000000000000';

/**
 * A question as the API answers it: published, open, no votes; its id and its time both sort
 * by `n`, as the server's do.
 */
export const questionFixture = (n: number, fields: Partial<Question> = {}): Question => ({
  _id: `01a21ba3-0000-7000-8000-${String(n).padStart(12, '0')}`,
  speakerId: FIXTURE_SPEAKER_ID,
  speakerName: 'Ada',
  askerUsername: `asker${n}`,
  question: `Question ${n}?`,
  createdAt: new Date(Date.UTC(2026, 10, 27, 9, 0, n)).toISOString(),
  votes: 0,
  answered: false,
  pinned: false,
  status: 'published',
  sessionId: null,
  anonymous: false,
  answer: null,
  answeredAt: null,
  ...fields,
});
