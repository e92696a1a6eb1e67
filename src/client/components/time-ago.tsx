import { Text, type TextProps } from '@mantine/core';
import { formatDateTime, formatTimeAgo } from '../lib/format-time.ts';
import { useNow } from '../lib/use-now.ts';

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
