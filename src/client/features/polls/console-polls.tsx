import { Group, Select, Stack, Text } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { useState } from 'react';
import { API_PATHS } from '../../../shared/routes.ts';
import { ExportButton } from '../../components/export-button.tsx';
import { toastFailed } from '../../components/toast.ts';
import { translate, useT } from '../../i18n/language.ts';
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
  const t = useT();
  const schedule = useSchedule().data;
  const [picked, setPicked] = useState(EVENT);
  const failed = (error: unknown) => {
    if (isUnauthorized(error)) onExpired();
    else toastFailed(error, translate('polls.changeFailed'));
  };
  const sessions = (schedule?.sessions ?? []).map((session) => ({
    value: session._id,
    label: t(session.cancelled ? 'polls.sessionOptionCancelled' : 'polls.sessionOption', {
      day: formatZonedDay(session.startsAt, schedule?.timezone ?? 'UTC'),
      time: formatZonedTime(session.startsAt, schedule?.timezone ?? 'UTC'),
      title: session.title,
    }),
  }));
  const session = schedule?.sessions.find((item) => item._id === picked);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Select
          label={t('polls.pollsOf')}
          data={[{ value: EVENT, label: t('polls.wholeEvent') }, ...sessions]}
          value={picked}
          onChange={(value) => setPicked(value ?? EVENT)}
          allowDeselect={false}
          searchable
          nothingFoundMessage={t('polls.noSuchSession')}
          leftSection={<IconCalendarEvent size={16} aria-hidden />}
          w={{ base: '100%', sm: 460 }}
          comboboxProps={{ withinPortal: true }}
        />
        <ExportButton path={API_PATHS.adminPollsCsv} token={token} filename="polls.csv">
          {t('polls.csv')}
        </ExportButton>
      </Group>
      <Text c="dimmed" fz="sm">
        {session ? t('polls.sessionPollsNote') : t('polls.eventPollsNote')}
      </Text>
      <OwnerPolls
        key={picked}
        scope={{ sessionId: session?._id ?? null }}
        token={token}
        title={
          session
            ? t('polls.sessionPollsTitle', { title: session.title })
            : t('polls.eventPollsTitle')
        }
        onFailed={failed}
      />
    </Stack>
  );
}
