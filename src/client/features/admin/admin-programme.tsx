import { Center, Loader, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { refreshScheduleFrom, useSchedule } from '../programme/api/get-schedule.ts';
import { useSaveSettings } from './api/admin-settings.ts';
import { isUnauthorized } from './api/errors.ts';
import { ProgrammeImportPanel } from './programme-import-panel.tsx';
import { ProgrammeRooms } from './programme-rooms.tsx';
import { ProgrammeSessions } from './programme-sessions.tsx';
import { timeZoneNames, zoneClock } from './programme-times.ts';
import { LoadError } from './list-notices.tsx';

/** The event's time zone: the programme's times are typed and shown in it. */
function TimeZoneCard({
  token,
  onExpired,
  timezone,
  offset,
}: {
  token: string;
  onExpired: () => void;
  timezone: string;
  offset: string;
}) {
  const client = useQueryClient();
  const save = useSaveSettings(token);
  const zones = useMemo(() => timeZoneNames(), []);
  const change = (value: string | null) => {
    if (!value || value === timezone) return;
    save.mutate(
      { timezone: value },
      {
        onSuccess: () => {
          refreshScheduleFrom(client);
          toastDone(`The programme is shown in ${value} time now.`);
        },
        onError: (error) => {
          if (isUnauthorized(error)) onExpired();
          else toastFailed(error, 'The time zone could not be saved; try again.');
        },
      },
    );
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="zone-title">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="zone-title">
          Time zone
        </Title>
        <Select
          label="The event’s time zone"
          description={`Now ${offset}. Sessions keep their moment when it changes; only how their times read changes.`}
          data={zones}
          value={timezone}
          onChange={change}
          searchable
          allowDeselect={false}
          disabled={save.isPending}
          leftSection={<IconWorld size={16} aria-hidden />}
          nothingFoundMessage="No time zone of that name"
          comboboxProps={{ withinPortal: true }}
        />
        <Text fz="xs" c="dimmed">
          An imported schedule that names its time zone sets it.
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * The console's Programme tab: the event's time zone, the schedule's import and the speakers'
 * sign-in links, the rooms, and the sessions by day and room; live, as the programme changes
 * here, in another organiser's console or by a re-import.
 */
export function AdminProgramme({ token, onExpired }: { token: string; onExpired: () => void }) {
  const schedule = useSchedule();
  const timezone = schedule.data?.timezone ?? 'UTC';
  const clock = useMemo(() => zoneClock(timezone), [timezone]);
  // The moment the tab opened: the offset shown where no time is typed yet.
  const [openedAt] = useState(() => Date.now());

  if (!schedule.data) {
    return schedule.isError ? (
      <LoadError>The programme could not load. It is tried again shortly.</LoadError>
    ) : (
      <Center p="xl">
        <Loader aria-label="Loading the programme" />
      </Center>
    );
  }
  const { rooms, sessions } = schedule.data;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ProgrammeImportPanel token={token} onExpired={onExpired} />
        <Stack gap="md">
          <TimeZoneCard
            token={token}
            onExpired={onExpired}
            timezone={timezone}
            offset={clock.offset(openedAt)}
          />
          <ProgrammeRooms token={token} onExpired={onExpired} rooms={rooms} />
        </Stack>
      </SimpleGrid>
      <ProgrammeSessions
        token={token}
        onExpired={onExpired}
        rooms={rooms}
        sessions={sessions}
        clock={clock}
        timezone={timezone}
        now={openedAt}
      />
    </Stack>
  );
}
