import { describe, expect, it } from 'vitest';
// eslint-disable-next-line no-restricted-imports -- A test reads the catalogs as written; the app never does.
import { CATALOGS, messagesIn } from '../../../shared/i18n/catalogs.ts';
import { POLL_LIMITS, type Poll } from '../../../shared/schemas/poll.ts';
import {
  type PollValues,
  moveOption,
  pollErrors,
  pollPatchOf,
  pollRequestOf,
  pollValuesOf,
} from './poll-form.ts';
import { showCatalog } from '../../i18n/language.ts';

const english = messagesIn('en');
/** The editor's errors in English, as the English screens show them. */
const errorsOf = (poll: PollValues) =>
  pollErrors(poll, (id, messageValues) => english.format(id, messageValues));

const values = (change: Partial<PollValues> = {}): PollValues => ({
  title: 'Which language next?',
  type: 'single',
  options: [
    { id: 'a', text: ' Rust ' },
    { id: 'b', text: 'Go' },
  ],
  maxRating: 5,
  correct: [],
  resultsVisible: false,
  ...change,
});

describe('the poll editor’s fields', () => {
  it('start a new poll with two empty options of different ids', () => {
    const fresh = pollValuesOf();
    expect(fresh.type).toBe('single');
    expect(fresh.options).toHaveLength(2);
    expect(fresh.options[0]?.id).not.toBe(fresh.options[1]?.id);
    expect(fresh.maxRating).toBe(POLL_LIMITS.defaultMaxRating);
  });

  it('make a request with what the type has, trimmed', () => {
    expect(pollRequestOf(values(), 'session-1')).toEqual({
      sessionId: 'session-1',
      title: 'Which language next?',
      type: 'single',
      resultsVisible: false,
      options: [
        { id: 'a', text: 'Rust' },
        { id: 'b', text: 'Go' },
      ],
    });
    const rating = pollRequestOf(values({ type: 'rating', maxRating: 10 }), null);
    expect(rating).not.toHaveProperty('options');
    expect(rating.maxRating).toBe(10);
    const quiz = pollRequestOf(values({ type: 'quiz', correct: ['b', 'gone'] }), null);
    expect(quiz.correctOptionIds).toEqual(['b']);
  });

  it('edit a draft with its title, options, scale and right answers only', () => {
    expect(pollPatchOf(values({ type: 'quiz', correct: ['a'] }))).toEqual({
      title: 'Which language next?',
      options: [
        { id: 'a', text: 'Rust' },
        { id: 'b', text: 'Go' },
      ],
      correctOptionIds: ['a'],
    });
    expect(pollPatchOf(values({ type: 'wordcloud' }))).toEqual({ title: 'Which language next?' });
  });

  it('read a draft back as fields', () => {
    const poll: Poll = {
      _id: '0193a1d0-0000-7000-8000-000000000001',
      sessionId: null,
      title: 'Quiz',
      type: 'quiz',
      options: [
        { id: '1', text: 'A' },
        { id: '2', text: 'B' },
      ],
      maxRating: 5,
      state: 'draft',
      resultsVisible: true,
      voters: 0,
      results: null,
      createdAt: '2026-11-28T09:00:00.000Z',
      correctOptionIds: ['2'],
    };
    expect(pollValuesOf(poll)).toMatchObject({
      type: 'quiz',
      correct: ['2'],
      resultsVisible: true,
    });
  });

  it('are refused as the server refuses them, on the field at fault', () => {
    expect(errorsOf(values())).toEqual({});
    expect(errorsOf(values({ title: '  ' }))).toHaveProperty('title');
    expect(
      errorsOf(
        values({
          options: [
            { id: 'a', text: 'Rust' },
            { id: 'b', text: '' },
          ],
        }),
      ),
    ).toHaveProperty(['options.1.text']);
    expect(errorsOf(values({ options: [{ id: 'a', text: 'Rust' }] }))).toHaveProperty('options');
    expect(
      errorsOf(
        values({
          options: [
            { id: 'a', text: 'Rust' },
            { id: 'b', text: 'rust' },
          ],
        }),
      ),
    ).toEqual({ 'options.1.text': 'This option is there already' });
    expect(errorsOf(values({ type: 'quiz' }))).toEqual({
      correct: 'Mark at least one right answer',
    });
    // A word cloud has no options: the empty ones left in the fields do not count.
    expect(errorsOf(values({ type: 'wordcloud', options: [] }))).toEqual({});
  });

  it('are written in the language shown, the shared schema’s refusals included', () => {
    const french = messagesIn('fr');
    showCatalog('fr', CATALOGS.fr);
    try {
      const errors = pollErrors(
        values({
          title: ' ',
          options: [
            { id: 'a', text: 'Rust' },
            { id: 'b', text: 'x'.repeat(POLL_LIMITS.optionTextMax + 1) },
          ],
        }),
        (id, messageValues) => french.format(id, messageValues),
      );
      expect(errors).toEqual({
        title: french.format('validation.required', {
          field: french.format('validation.fieldTitle'),
        }),
        'options.1.text': french.format('validation.tooLong', {
          field: french.format('validation.fieldOption'),
          max: POLL_LIMITS.optionTextMax,
        }),
      });
    } finally {
      showCatalog('en', CATALOGS.en);
    }
  });
});

describe('moving an option', () => {
  it('moves it, and a move past either end does nothing', () => {
    expect(moveOption(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveOption(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moveOption(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveOption(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
  });
});
