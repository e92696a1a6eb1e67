import { describe, expect, it } from 'vitest';
import type { Poll } from '../../../shared/schemas/poll.ts';
import { pickStagePoll } from './stage-poll.ts';

let made = 0;
const poll = (state: Poll['state'], resultsVisible = false): Poll => {
  made += 1;
  return {
    _id: `0193a1d0-0000-7000-8000-${String(made).padStart(12, '0')}`,
    sessionId: null,
    title: `Poll ${made}`,
    type: 'single',
    options: [],
    maxRating: 5,
    state,
    resultsVisible,
    voters: 0,
    results: null,
    createdAt: new Date(Date.UTC(2026, 10, 28, 9, made)).toISOString(),
  };
};

describe('the poll a projector shows', () => {
  it('is the newest open poll, revealed or not', () => {
    const older = poll('open', true);
    const newer = poll('open');
    expect(pickStagePoll([older, newer, poll('draft')])).toBe(newer);
  });

  it('falls back to the newest closed poll whose results are revealed', () => {
    const revealed = poll('closed', true);
    const newerRevealed = poll('closed', true);
    const hidden = poll('closed');
    expect(pickStagePoll([revealed, newerRevealed, hidden])).toBe(newerRevealed);
  });

  it('shows nothing for drafts and closed polls with hidden results', () => {
    expect(pickStagePoll([poll('draft'), poll('closed')])).toBeUndefined();
    expect(pickStagePoll([])).toBeUndefined();
  });

  it('shows only an open poll when asked to (the event’s polls between talks)', () => {
    expect(pickStagePoll([poll('closed', true)], { openOnly: true })).toBeUndefined();
    const open = poll('open');
    expect(pickStagePoll([poll('closed', true), open], { openOnly: true })).toBe(open);
  });
});
