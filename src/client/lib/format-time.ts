/**
 * The one place dates and times are written for people: in the language shown and their own
 * time zone, from the ISO 8601 times the API sends; the programme's in the event's time zone.
 */

import { type Language, languageOf } from '../../shared/i18n/languages.ts';
import { isTimeZone, zonedFormatter } from '../../shared/zoned-time.ts';
import { shownLanguage, translate } from '../i18n/language.ts';

/** The region a language is written for when the browser names none of its own (Brazil's). */
const DEFAULT_REGIONS: Partial<Record<Language, string>> = { pt: 'pt-BR' };

const locales = new Map<Language, string>();

/** Whether the platform's formatters take `tag` (a browser may name one as "en-US@posix"). */
function isLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * The locale `language` is written in for a browser that lists `browser`: its own variant of
 * the language when it names one the platform knows (English as written in Britain for a British
 * browser), so only the words change with the language, not the reader's habits of writing dates.
 */
export function localeFor(language: Language, browser: readonly string[]): string {
  return (
    browser.find((tag) => languageOf(tag) === language && isLocale(tag)) ??
    DEFAULT_REGIONS[language] ??
    language
  );
}

/** The locale times are written in: the language shown, in the browser's variant of it. */
export function shownLocale(language: Language = shownLanguage()): string {
  let locale = locales.get(language);
  if (locale === undefined) {
    locale = localeFor(language, typeof navigator === 'undefined' ? [] : navigator.languages);
    locales.set(language, locale);
  }
  return locale;
}

/** Formatters made once per locale (making one is the costly part), by what they write. */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(
  key: string,
  make: () => T,
): T {
  let format = formatters.get(key) as T | undefined;
  if (!format) {
    format = make();
    formatters.set(key, format);
  }
  return format;
}

const absolute = (locale: string) =>
  cached(
    `${locale}\nabsolute`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
  );
const relative = (locale: string, wording: 'long' | 'short') =>
  cached(
    `${locale}\nrelative-${wording}`,
    () =>
      new Intl.RelativeTimeFormat(locale, {
        numeric: 'auto',
        ...(wording === 'short' ? { style: 'short' } : {}),
      }),
  );

/** Rounds half away from zero, so past and future round alike. */
const round = (value: number) => Math.sign(value) * Math.round(Math.abs(value));

/** The date and time, e.g. "24 Nov 2026, 14:05"; '' for a time that is not one. */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : absolute(shownLocale()).format(time);
}

/**
 * How long ago (or how soon), as people say it: "just now", "5 minutes ago", "yesterday",
 * "2 weeks ago"; with `short` wording "5 min. ago" for tight places. Each unit is rounded from
 * the one below it, so 59.5 minutes read "1 hour ago". '' for a time that is not one.
 */
export function formatTimeAgo(
  iso: string,
  now: number = Date.now(),
  wording: 'long' | 'short' = 'long',
): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const seconds = round((time - now) / 1000);
  if (Math.abs(seconds) < 45) return translate('time.justNow');
  const format = relative(shownLocale(), wording);
  const minutes = round(seconds / 60);
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute');
  const hours = round(minutes / 60);
  if (Math.abs(hours) < 24) return format.format(hours, 'hour');
  const days = round(hours / 24);
  if (Math.abs(days) < 7) return format.format(days, 'day');
  if (Math.abs(days) < 30) return format.format(round(days / 7), 'week');
  if (Math.abs(days) < 365) return format.format(round(days / 30), 'month');
  return format.format(round(days / 365), 'year');
}

const hourOfDay = (locale: string) =>
  cached(
    `${locale}\nhour`,
    () => new Intl.DateTimeFormat(locale, { weekday: 'short', hour: '2-digit', minute: '2-digit' }),
  );

/** The start of an hour, e.g. "Tue 14:00" (a chart's axis); '' for a time that is not one. */
export function formatHour(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : hourOfDay(shownLocale()).format(time);
}

/*
 * The programme's times (decision 225): every time of a session is written in the event's time
 * zone, whatever the phone's, in the language shown (24 or 12 hours as its readers are used
 * to). `locale` is for tests; screens leave it out.
 */

const zonedFormats = new Map<string, Intl.DateTimeFormat>();

/** Whether the locale writes times on a 12-hour clock ("9:30 AM"; 24 hours write "09:30"). */
const usesTwelveHours = (locale: string) => {
  const { hourCycle } = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions();
  return hourCycle === 'h11' || hourCycle === 'h12';
};

/** One formatter per locale, zone and style, made once (making one is the costly part). */
function zonedFormat(
  timeZone: string,
  style: 'time' | 'day' | 'zone',
  locale: string = shownLocale(),
): Intl.DateTimeFormat {
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  const key = `${locale}\n${zone}\n${style}`;
  let format = zonedFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === 'time'
        ? { hour: usesTwelveHours(locale) ? 'numeric' : '2-digit', minute: '2-digit' }
        : style === 'day'
          ? { weekday: 'short', day: 'numeric', month: 'short' }
          : { timeZoneName: 'short' };
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    zonedFormats.set(key, format);
  }
  return format;
}

/** A time of day in `timeZone`, e.g. "09:30"; '' for a time that is not one. */
export function formatZonedTime(iso: string, timeZone: string, locale?: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : zonedFormat(timeZone, 'time', locale).format(time);
}

/** A session's time range in `timeZone`, e.g. "09:30 – 10:15"; '' when either is not a time. */
export function formatTimeRange(
  startIso: string,
  endIso: string,
  timeZone: string,
  locale?: string,
): string {
  const start = Date.parse(startIso);
  const end = Date.parse(endIso);
  if (Number.isNaN(start) || Number.isNaN(end)) return '';
  if (end <= start) return zonedFormat(timeZone, 'time', locale).format(start);
  return zonedFormat(timeZone, 'time', locale).formatRange(start, end);
}

/** The day of a time in `timeZone`, as a programme names it, e.g. "Sat, 14 Mar". */
export function formatZonedDay(iso: string, timeZone: string, locale?: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : zonedFormat(timeZone, 'day', locale).format(time);
}

/** The calendar day of an instant in `timeZone`, `YYYY-MM-DD` (a programme's day tab). */
export function zonedDayKey(instant: string | number, timeZone: string): string {
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  return zonedFormatter(zone)(instant).slice(0, 10);
}

/**
 * The time zone as the page names it once: its IANA name and, where the locale has one that
 * differs, its short name at `at` (which changes with daylight-saving time), e.g.
 * "Europe/Berlin (CET)" or "Europe/Berlin (GMT+1)"; "UTC" alone.
 */
export function timeZoneLabel(timeZone: string, at: number, locale?: string): string {
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  const short = zonedFormat(zone, 'zone', locale)
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  return short && short !== zone ? `${zone} (${short})` : zone;
}
