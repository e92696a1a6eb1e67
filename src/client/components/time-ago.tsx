import { Text, type TextProps } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatDateTime, formatTimeAgo } from '../lib/format-time.ts';

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

/**
 * How long ago, kept current, with the exact time as its machine-readable value and tooltip:
 * "5 min. ago" in lists, "5 minutes ago" with `long`.
 */
export function TimeAgo({
  iso,
  long = false,
  ...props
}: { iso: string; long?: boolean } & TextProps) {
  const current = useNow();
  return (
    <Text component="time" dateTime={iso} title={formatDateTime(iso)} {...props}>
      {formatTimeAgo(iso, current, long ? 'long' : 'short')}
    </Text>
  );
}
