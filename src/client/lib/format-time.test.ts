import { describe, expect, it } from 'vitest';
import { formatDateTime, formatTimeAgo } from './format-time.ts';

const now = Date.parse('2026-11-24T12:00:00.000Z');
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

// The words come from the browser's locale: the tests check the unit and the number chosen.
const long = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const short = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });

describe('formatTimeAgo', () => {
  it('says "just now" for the last 45 seconds, and for a clock a little ahead', () => {
    expect(formatTimeAgo(ago(0), now)).toBe('just now');
    expect(formatTimeAgo(ago(44), now)).toBe('just now');
    expect(formatTimeAgo(ago(-30), now)).toBe('just now');
  });

  it('counts minutes, hours, days, weeks, months and years, each rounded', () => {
    expect(formatTimeAgo(ago(45), now)).toBe(long.format(-1, 'minute'));
    expect(formatTimeAgo(ago(5 * 60), now)).toBe(long.format(-5, 'minute'));
    expect(formatTimeAgo(ago(59.5 * 60), now)).toBe(long.format(-1, 'hour'));
    expect(formatTimeAgo(ago(3 * 3600 + 1200), now)).toBe(long.format(-3, 'hour'));
    expect(formatTimeAgo(ago(30 * 3600), now)).toBe(long.format(-1, 'day'));
    expect(formatTimeAgo(ago(6 * 86_400), now)).toBe(long.format(-6, 'day'));
    expect(formatTimeAgo(ago(15 * 86_400), now)).toBe(long.format(-2, 'week'));
    expect(formatTimeAgo(ago(95 * 86_400), now)).toBe(long.format(-3, 'month'));
    expect(formatTimeAgo(ago(800 * 86_400), now)).toBe(long.format(-2, 'year'));
  });

  it('has a short wording for tight places, and the future for a clock far ahead', () => {
    expect(formatTimeAgo(ago(5 * 60), now, 'short')).toBe(short.format(-5, 'minute'));
    expect(formatTimeAgo(ago(-2 * 3600), now)).toBe(long.format(2, 'hour'));
  });

  it('answers nothing for a time that is not one', () => {
    expect(formatTimeAgo('yesterday-ish', now)).toBe('');
  });
});

describe('formatDateTime', () => {
  it('writes the date and time in the reader’s locale, or nothing for a bad time', () => {
    const iso = '2026-11-24T14:05:00.000Z';
    const expected = new Intl.DateTimeFormat(undefined, {
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(Date.parse(iso));
    expect(formatDateTime(iso)).toBe(expected);
    expect(formatDateTime('')).toBe('');
  });
});
