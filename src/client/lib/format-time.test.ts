import { beforeAll, describe, expect, it } from 'vitest';
// eslint-disable-next-line no-restricted-imports -- A test reads the catalogs as written; the app never does.
import { CATALOGS } from '../../shared/i18n/catalogs.ts';
import { showCatalog } from '../i18n/language.ts';
import {
  formatDateTime,
  formatTimeAgo,
  formatTimeRange,
  formatZonedDay,
  formatZonedTime,
  localeFor,
  shownLocale,
  timeZoneLabel,
  zonedDayKey,
} from './format-time.ts';

const now = Date.parse('2026-11-24T12:00:00.000Z');
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

beforeAll(() => {
  showCatalog('en', CATALOGS.en);
});

// The words come from the language shown: the tests check the unit and the number chosen.
const long = new Intl.RelativeTimeFormat(shownLocale('en'), { numeric: 'auto' });
const short = new Intl.RelativeTimeFormat(shownLocale('en'), { numeric: 'auto', style: 'short' });

describe('localeFor', () => {
  it('takes the browser’s variant of the language, and the language alone past a tag the platform refuses', () => {
    expect(localeFor('en', ['fr-FR', 'en-GB'])).toBe('en-GB');
    expect(localeFor('pt', ['de'])).toBe('pt-BR');
    // Chromium started under a POSIX locale names its language so: Intl throws on it.
    expect(localeFor('en', ['en-US@posix'])).toBe('en');
    expect(() => new Intl.DateTimeFormat(localeFor('en', ['en-US@posix']))).not.toThrow();
  });
});

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
    const expected = new Intl.DateTimeFormat(shownLocale(), {
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(Date.parse(iso));
    expect(formatDateTime(iso)).toBe(expected);
    expect(formatDateTime('')).toBe('');
  });
});

describe('in the language shown', () => {
  it('writes dates, times and "just now" in it, and back in English after', () => {
    const iso = '2026-11-24T14:05:00.000Z';
    try {
      showCatalog('fr', CATALOGS.fr);
      expect(formatTimeAgo(ago(10), now)).toBe('à l’instant');
      expect(formatTimeAgo(ago(5 * 60), now)).toBe(
        new Intl.RelativeTimeFormat(shownLocale(), { numeric: 'auto' }).format(-5, 'minute'),
      );
      expect(shownLocale()).toMatch(/^fr\b/);
      expect(formatZonedTime('2026-03-29T03:30:00+02:00', 'Europe/Berlin')).toBe('03:30');
      showCatalog('pt', CATALOGS.pt);
      expect(shownLocale()).toMatch(/^pt\b/);
      expect(formatDateTime(iso)).toBe(
        new Intl.DateTimeFormat(shownLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
          Date.parse(iso),
        ),
      );
    } finally {
      showCatalog('en', CATALOGS.en);
    }
    expect(formatTimeAgo(ago(10), now)).toBe('just now');
  });
});

describe('the programme’s times, in the event’s time zone', () => {
  const berlin = 'Europe/Berlin';
  // 2026-03-29: Berlin's clocks go from 02:00 (CET, +01:00) to 03:00 (CEST, +02:00).
  const beforeChange = '2026-03-29T01:30:00+01:00';
  const afterChange = '2026-03-29T03:30:00+02:00';

  it('writes times with each instant’s own offset, across a daylight-saving change', () => {
    expect(formatZonedTime(beforeChange, berlin, 'en-GB')).toBe('01:30');
    expect(formatZonedTime(afterChange, berlin, 'en-GB')).toBe('03:30');
    // One hour apart as instants, two on the wall clock.
    expect(Date.parse(afterChange) - Date.parse(beforeChange)).toBe(3_600_000);
    expect(formatTimeRange(beforeChange, afterChange, berlin, 'en-GB')).toBe('01:30–03:30');
    // The same instants written in UTC (`Z`) read the same in Berlin.
    expect(formatZonedTime('2026-03-29T00:30:00Z', berlin, 'en-GB')).toBe('01:30');
    expect(formatZonedTime('2026-10-25T01:30:00Z', berlin, 'en-GB')).toBe('02:30');
  });

  it('names the zone once, with its short name on that day', () => {
    expect(timeZoneLabel(berlin, Date.parse(beforeChange), 'en-GB')).toBe('Europe/Berlin (CET)');
    expect(timeZoneLabel(berlin, Date.parse(afterChange), 'en-GB')).toBe('Europe/Berlin (CEST)');
    expect(timeZoneLabel('UTC', Date.parse(afterChange), 'en-GB')).toBe('UTC');
    // A name the runtime does not know is never thrown at the reader: UTC instead.
    expect(timeZoneLabel('Mars/Olympus', Date.parse(afterChange), 'en-GB')).toBe('UTC');
  });

  it('puts a session in the day of its start in the event’s zone', () => {
    // 23:30 in Berlin on the 14th is already the 15th in Tokyo and still the 14th in UTC.
    const late = '2026-03-14T23:30:00+01:00';
    expect(zonedDayKey(late, berlin)).toBe('2026-03-14');
    expect(zonedDayKey(late, 'Asia/Tokyo')).toBe('2026-03-15');
    expect(zonedDayKey(late, 'UTC')).toBe('2026-03-14');
    expect(formatZonedDay(late, berlin, 'en-GB')).toBe('Sat 14 Mar');
  });

  it('does not follow the phone’s own time zone', () => {
    const phone = process.env.TZ;
    try {
      for (const zone of ['America/Los_Angeles', 'Asia/Tokyo', 'Pacific/Kiritimati']) {
        process.env.TZ = zone;
        expect(new Date(Date.parse(afterChange)).getHours(), zone).not.toBe(3);
        expect(formatZonedTime(afterChange, berlin, 'en-GB'), zone).toBe('03:30');
        expect(zonedDayKey('2026-03-14T23:30:00+01:00', berlin), zone).toBe('2026-03-14');
        expect(formatZonedDay('2026-03-14T23:30:00+01:00', berlin, 'en-GB'), zone).toBe(
          'Sat 14 Mar',
        );
      }
    } finally {
      if (phone === undefined) delete process.env.TZ;
      else process.env.TZ = phone;
    }
  });

  it('writes hours as the locale does: 24 hours with two digits, 12 hours without', () => {
    expect(formatZonedTime(afterChange, berlin, 'de-DE')).toBe('03:30');
    expect(formatZonedTime(afterChange, berlin, 'en-US')).toMatch(/^3:30\sAM$/);
  });

  it('answers nothing for a time that is not one', () => {
    expect(formatZonedTime('soon', berlin)).toBe('');
    expect(formatTimeRange('soon', afterChange, berlin)).toBe('');
  });
});
