/**
 * The one place dates and times are written for people: in their own locale and time zone,
 * from the ISO 8601 times the API sends.
 */

const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const relative = {
  long: new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }),
  short: new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' }),
};

/** Rounds half away from zero, so past and future round alike. */
const round = (value: number) => Math.sign(value) * Math.round(Math.abs(value));

/** The date and time, e.g. "24 Nov 2026, 14:05"; '' for a time that is not one. */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : absolute.format(time);
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
  if (Math.abs(seconds) < 45) return 'just now';
  const format = relative[wording];
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

const hourOfDay = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/** The start of an hour, e.g. "Tue 14:00" (a chart's axis); '' for a time that is not one. */
export function formatHour(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : hourOfDay.format(time);
}
