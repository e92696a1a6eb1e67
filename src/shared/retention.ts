/**
 * How long attendees' data is kept after the event (decision 217): the one rule, shared by the
 * server's sweep, the settings it publishes and the screens that say it.
 */

const DAY_MS = 86_400_000;

/** The console warns of the removal from this many days before it. */
export const RETENTION_WARNING_DAYS = 7;

/** The settings the rule reads. */
export interface RetentionSettings {
  /** Days after the programme's last session ends; null: no period. */
  retentionDays: number | null;
  /** A date (`YYYY-MM-DD`, UTC) after which the data goes; null: none. Wins over the days. */
  retentionUntil: string | null;
}

/**
 * When attendees' data is removed: the end of `retentionUntil` (UTC) when the organiser gave a
 * date; else `retentionDays` after the programme's last session ends (`programmeEndsAt`); else
 * never by itself (null: kept until the organiser purges it).
 */
export function retentionEnd(
  settings: RetentionSettings,
  programmeEndsAt: string | null,
): Date | null {
  if (settings.retentionUntil) {
    return new Date(Date.parse(`${settings.retentionUntil}T00:00:00.000Z`) + DAY_MS);
  }
  if (settings.retentionDays !== null && programmeEndsAt) {
    const end = Date.parse(programmeEndsAt);
    if (Number.isFinite(end)) return new Date(end + settings.retentionDays * DAY_MS);
  }
  return null;
}

/** The last day (`YYYY-MM-DD`, UTC) data is kept, for a removal at `end`; null for none. */
export function lastDayKept(end: Date | null): string | null {
  if (!end) return null;
  // Removed at midnight: the day before is the last one kept.
  return new Date(end.getTime() - 1).toISOString().slice(0, 10);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2027-03-12` as "12 March 2027": the same text on the server and in every browser. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return `${date ?? ''} ${MONTHS[(month ?? 1) - 1] ?? ''} ${year ?? ''}`;
}

const keptDayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The last day kept as the join page's line writes it in `language`: in English "12 March 2027"
 * (`formatDay`), in the others as their readers write a date ("12 mars 2027", "2027年3月12日").
 * The server fills the page's line with it and the client's first render writes it again: both
 * must write the same text.
 */
export function formatKeptDay(day: string, language: string): string {
  if (language === 'en') return formatDay(day);
  const time = Date.parse(`${day}T00:00:00.000Z`);
  if (Number.isNaN(time)) return day;
  let format = keptDayFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'pt' ? 'pt-BR' : language, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    keptDayFormats.set(language, format);
  }
  return format.format(time);
}
