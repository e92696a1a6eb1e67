import { Alert } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { RETENTION_WARNING_DAYS, formatDay, lastDayKept } from '../../../shared/retention.ts';
import { useAdminSettings } from './api/admin-settings.ts';

const DAY_MS = 86_400_000;

/**
 * The console's warning, from a week before attendees' data is removed by the retention the
 * organiser set (decision 217): there is still time to export or to change the date.
 */
export function RetentionBanner({ token }: { token: string }) {
  const end = useAdminSettings(token).data?.retentionEndsAt;
  // When the console opened: the banner is about days, not seconds.
  const [now] = useState(() => Date.now());
  if (!end) return null;
  const left = Date.parse(end) - now;
  if (left <= 0 || left > RETENTION_WARNING_DAYS * DAY_MS) return null;
  const day = lastDayKept(new Date(end)) ?? '';
  return (
    <Alert color="orange" icon={<IconClockExclamation />} mb="sm" role="status">
      Attendee data will be removed on {formatDay(day)}, at the end of the day (UTC). Download what
      you want to keep first, or change the retention in Settings.
    </Alert>
  );
}
