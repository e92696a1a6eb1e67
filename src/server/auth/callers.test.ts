import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addSpeakerWithSecret,
  askQuestion,
  call,
  speakerToken,
} from '../../../tests/support/speakers.ts';
import { useTestApp } from '../../../tests/support/test-app.ts';

describe('a moderator’s request', () => {
  const t = useTestApp({ env: { WRITE_RATE_LIMIT: '10000' } });
  let speakerId: string;
  let token: string;

  beforeAll(async () => {
    const { speaker, secret } = await addSpeakerWithSecret(t.url, 'Frances Allen');
    speakerId = speaker._id;
    token = await speakerToken(t.url, speaker.username, secret);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** What one request costs the resolver: its calls, and the reads of the speakers table. */
  function countWhile() {
    const resolve = vi.spyOn(t.app.deps.callers, 'resolve');
    const selectFrom = vi.spyOn(t.app.deps.db, 'selectFrom');
    return {
      resolutions: () => resolve.mock.calls.length,
      speakerReads: () =>
        selectFrom.mock.calls.filter(([table]) => (table as unknown) === 'speakers').length,
    };
  }

  it('checks the token and reads the speaker once, for the route and its handler alike', async () => {
    const question = await askQuestion(t.url, {
      speakerId,
      question: 'What did the first optimising compiler take?',
      askerUsername: 'grace',
    });
    const patch = countWhile();
    const answered = await call(t.url, 'PATCH', `/api/questions/${question._id}`, {
      token,
      body: { answered: true },
    });
    expect(answered.status).toBe(200);
    expect(patch.resolutions()).toBe(1);
    expect(patch.speakerReads()).toBe(1);
    vi.restoreAllMocks();

    const csv = countWhile();
    const download = await call(t.url, 'GET', `/api/speakers/${speakerId}/questions.csv`, {
      token,
    });
    expect(download.status).toBe(200);
    await download.text();
    expect(csv.resolutions()).toBe(1);
    expect(csv.speakerReads()).toBe(1);
  });
});
