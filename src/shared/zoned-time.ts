/**
 * The programme's times (decision 210): stored as UTC instants, shown in the event's time zone
 * (an IANA name such as `Europe/Berlin`) with that zone's offset at each instant, so a time on
 * either side of a daylight-saving change carries its own offset.
 */

/** Whether `name` is a time zone this runtime knows (an IANA name, or `UTC`). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An ISO 8601 date and time with an offset or `Z`; seconds and fractions optional. */
const WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})$/;
/** The same without an offset: refused, with a message that says why. */
const WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/;

/** Whether `text` is a date and time that lacks only its offset (`2026-03-14T09:30`). */
export const lacksOffset = (text: string): boolean => WITHOUT_OFFSET.test(text);

/**
 * The instant (milliseconds since the epoch) an ISO 8601 time with an offset (or `Z`) names,
 * or undefined for anything else: no offset, an impossible date (February 30th), hours past 23.
 */
export function instantOf(text: string): number | undefined {
  const match = WITH_OFFSET.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '0', zone = 'Z'] = match;
  const wall = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Math.floor(Number(`0.${fraction}`) * 1000),
  );
  const date = new Date(wall);
  // Date.UTC rolls an impossible date over (February 30th is March 2nd): refused instead.
  if (
    date.getUTCFullYear() !== Number(year) ||
    date.getUTCMonth() !== Number(month) - 1 ||
    date.getUTCDate() !== Number(day) ||
    date.getUTCHours() !== Number(hour) ||
    date.getUTCMinutes() !== Number(minute) ||
    date.getUTCSeconds() !== Number(second)
  ) {
    return undefined;
  }
  if (zone === 'Z' || zone === 'z') return wall;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return undefined;
  return wall - sign * (hours * 60 + minutes) * 60_000;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * A formatter of instants in `timeZone`: each as ISO 8601 with that zone's offset at that
 * instant, e.g. `2026-03-29T01:30:00+01:00` and, an hour later, `2026-03-29T03:30:00+02:00` in
 * `Europe/Berlin`. Make one per time zone and reuse it: making the formatter is the costly part.
 */
export function zonedFormatter(timeZone: string): (instant: Date | number | string) => string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return (instant) => {
    const time = new Date(instant).getTime();
    const parts: Record<string, number> = {};
    for (const { type, value } of format.formatToParts(time)) {
      if (type !== 'literal') parts[type] = Number(value);
    }
    const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
    const millis = ((time % 1000) + 1000) % 1000;
    const wall = Date.UTC(year, month - 1, day, hour, minute, second, millis);
    const offset = Math.round((wall - time) / 60_000);
    const sign = offset < 0 ? '-' : '+';
    const fraction = millis === 0 ? '' : `.${pad(millis, 3)}`;
    return (
      `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}` +
      `${fraction}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
    );
  };
}
