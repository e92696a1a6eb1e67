import { Text, type TextProps } from '@mantine/core';
import { useEffect, useState } from 'react';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "just now", "5 min. ago", "yesterday"... */
export function timeAgo(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'minute') {
      return relative.format(Math.round(seconds / size), unit);
    }
  }
  return 'just now';
}

/** One clock for every time label on the page, ticking twice a minute. */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function useNow(): number {
  const [value, setValue] = useState(() => Date.now());
  useEffect(() => {
    const update = () => setValue(Date.now());
    listeners.add(update);
    timer ??= setInterval(() => {
      for (const listener of listeners) listener();
    }, 30_000);
    return () => {
      listeners.delete(update);
      if (listeners.size === 0 && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  }, []);
  return value;
}

/** A relative time with the exact one as its machine-readable value and tooltip. */
export function TimeAgo({ iso, ...props }: { iso: string } & TextProps) {
  const current = useNow();
  return (
    <Text component="time" dateTime={iso} title={absolute.format(new Date(iso))} {...props}>
      {timeAgo(iso, current)}
    </Text>
  );
}
