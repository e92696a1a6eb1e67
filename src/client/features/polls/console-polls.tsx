import { Group, Select, Stack, Text } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { useState } from 'react';
import { API_PATHS } from '../../../shared/routes.ts';
import { ExportButton } from '../../components/export-button.tsx';
import { toastFailed } from '../../components/toast.ts';
import { formatZonedDay, formatZonedTime } from '../../lib/format-time.ts';
import { isUnauthorized } from '../admin/api/errors.ts';
import { useSchedule } from '../programme/api/get-schedule.ts';
import { OwnerPolls } from './owner-polls.tsx';

/** The picker's value for the polls of the whole event. */
const EVENT = 'event';

/**
 * The console's Polls tab: the organiser runs the polls of the whole event and of any session
 * (the admin owns every poll), with the same panel as the speakers; and downloads every poll
 * with its results as CSV.
 */
export function ConsolePolls({ token, onExpired }: { token: string; onExpired: () => void }) {
  const schedule = useSchedule().data;
  const [picked, setPicked] = useState(EVENT);
  const failed = (error: unknown) => {
    if (isUnauthorized(error)) onExpired();
    else toastFailed(error, 'The change did not go through; try again.');
  };
  const sessions = (schedule?.sessions ?? []).map((session) => ({
    value: session._id,
    label: `${formatZonedDay(session.startsAt, schedule?.timezone ?? 'UTC')} ${formatZonedTime(
      session.startsAt,
      schedule?.timezone ?? 'UTC',
    )} · ${session.title}${session.cancelled ? ' (cancelled)' : ''}`,
  }));
  const session = schedule?.sessions.find((item) => item._id === picked);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Select
          label="Polls of"
          data={[{ value: EVENT, label: 'The whole event' }, ...sessions]}
          value={picked}
          onChange={(value) => setPicked(value ?? EVENT)}
          allowDeselect={false}
          searchable
          nothingFoundMessage="No session of that name"
          leftSection={<IconCalendarEvent size={16} aria-hidden />}
          w={{ base: '100%', sm: 460 }}
          comboboxProps={{ withinPortal: true }}
        />
        <ExportButton path={API_PATHS.adminPollsCsv} token={token} filename="polls.csv">
          Polls CSV
        </ExportButton>
      </Group>
      <Text c="dimmed" fz="sm">
        {session
          ? 'Its speakers run these from their dashboard too; the session’s screens show the open one.'
          : 'Polls of the whole event show on every attendee’s home screen while they are open.'}
      </Text>
      <OwnerPolls
        key={picked}
        scope={{ sessionId: session?._id ?? null }}
        token={token}
        title={session ? `Polls · ${session.title}` : 'Polls of the whole event'}
        onFailed={failed}
      />
    </Stack>
  );
}
