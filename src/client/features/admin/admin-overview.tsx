import { Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import {} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useMemo } from 'react';
import { API_PATHS } from '../../../shared/routes.ts';
import type { AdminStats } from '../../../shared/schemas/settings.ts';
import { ExportButton } from '../../components/export-button.tsx';
import { useLiveUpdates } from '../../lib/live.ts';
import { useSchedule } from '../programme/api/get-schedule.ts';
import { ADMIN_STATS_KEY, useAdminStats } from './api/admin-stats.ts';
import { useSessionExpiry } from './use-session-expiry.ts';
import { DownloadAllButton } from './download-all-button.tsx';
import { LoadError } from './list-notices.tsx';

const AdminCharts = lazy(() => import('./admin-charts.tsx'));

/** The counts among the stats: every one of them is a figure of the overview. */
type Figure = {
  [K in keyof AdminStats]: AdminStats[K] extends number ? K : never;
}[keyof AdminStats];

/** The label of each figure, in the order a sponsor report names them. */
const FIGURE_LABELS: Record<Figure, string> = {
  attendees: 'Attendees joined',
  memories: 'Memories',
  questions: 'Questions',
  votes: 'Votes',
  speakers: 'Speakers',
  pendingQuestions: 'Questions awaiting approval',
};
const FIGURES = Object.entries(FIGURE_LABELS) as [Figure, string][];

const numbers = new Intl.NumberFormat();

/** Refreshes the figures when something is posted or removed, at most once a second. */
function useLiveStats(): void {
  const client = useQueryClient();
  const refresh = useMemo(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void client.invalidateQueries({ queryKey: ADMIN_STATS_KEY });
      }, 1_000);
    };
  }, [client]);
  useLiveUpdates({
    on: {
      memoryCreated: refresh,
      memoryDeleted: refresh,
      speakerCreated: refresh,
      speakerDeleted: refresh,
      pollUpdated: refresh,
      pollDeleted: refresh,
    },
    refetchOnConnect: [ADMIN_STATS_KEY],
  });
}

/** The exports for the end of the day: questions, the figures, and every memory. */
function Exports({ token, onExpired }: { token: string; onExpired: () => void }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} fz="md">
          Exports
        </Title>
        <Text c="dimmed" fz="sm">
          For the sponsor report and the archive. Spreadsheet formulas in typed text are
          neutralised.
        </Text>
        <Group gap="sm">
          <ExportButton path={API_PATHS.adminQuestionsCsv} token={token} filename="questions.csv">
            Questions CSV
          </ExportButton>
          <ExportButton path={API_PATHS.adminStatsCsv} token={token} filename="stats.csv">
            Figures CSV
          </ExportButton>
          <ExportButton path={API_PATHS.adminPollsCsv} token={token} filename="polls.csv">
            Polls CSV
          </ExportButton>
          <DownloadAllButton token={token} onExpired={onExpired} />
        </Group>
      </Stack>
    </Paper>
  );
}

/** Polls' rows shown in the overview: the most answered ones. */
const POLL_ROWS = 10;

/** Participation in polls: voters per poll (most first), and distinct voters per session. */
function PollFigures({ polls }: { polls: AdminStats['polls'] }) {
  const schedule = useSchedule().data;
  if (polls.perPoll.length === 0) return null;
  const sessionName = (id: string | null) =>
    id === null
      ? 'The whole event'
      : (schedule?.sessions.find((session) => session._id === id)?.title ?? 'A session');
  const top = [...polls.perPoll].sort((a, b) => b.voters - a.voters).slice(0, POLL_ROWS);
  const sessions = [...polls.perSession].sort((a, b) => b.voters - a.voters).slice(0, POLL_ROWS);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="poll-figures">
      <Title order={2} fz="md" id="poll-figures" mb="sm">
        Polls
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Table.ScrollContainer minWidth={280}>
          <Table aria-label="Voters per poll" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th ta="start">Poll</Table.Th>
                <Table.Th ta="end">Voters</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {top.map((poll) => (
                <Table.Tr key={poll.pollId}>
                  <Table.Td>
                    <Text fz="sm" dir="auto" lineClamp={2}>
                      {poll.title}
                    </Text>
                    <Text fz="xs" c="dimmed" lineClamp={1}>
                      {sessionName(poll.sessionId)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="end">{numbers.format(poll.voters)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Table.ScrollContainer minWidth={280}>
          <Table aria-label="Participation per session" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th ta="start">Session</Table.Th>
                <Table.Th ta="end">Polls</Table.Th>
                <Table.Th ta="end">Voters</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.map((row) => (
                <Table.Tr key={row.sessionId ?? 'event'}>
                  <Table.Td>
                    <Text fz="sm" dir="auto" lineClamp={2}>
                      {sessionName(row.sessionId)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="end">{numbers.format(row.polls)}</Table.Td>
                  <Table.Td ta="end">{numbers.format(row.voters)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </SimpleGrid>
    </Paper>
  );
}

/** The console's first tab: live figures, charts and the exports. */
export function AdminOverview({ token, onExpired }: { token: string; onExpired: () => void }) {
  const stats = useAdminStats(token);
  useLiveStats();
  const expired = useSessionExpiry(stats.error, onExpired);

  return (
    <Stack gap="md">
      {stats.isError && !expired && !stats.data && (
        <LoadError>The figures could not load; trying again.</LoadError>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        {FIGURES.map(([key, label]) => (
          <Paper key={key} withBorder radius="md" p="md">
            <Text c="dimmed" fz="sm" fw={600}>
              {label}
            </Text>
            {stats.data ? (
              <Text fz={28} fw={800} lh={1.2} aria-live="polite">
                {numbers.format(stats.data[key])}
              </Text>
            ) : (
              <Skeleton h={34} mt={2} w="60%" />
            )}
          </Paper>
        ))}
      </SimpleGrid>
      {stats.data ? (
        <Suspense fallback={<Skeleton h={260} radius="md" />}>
          <AdminCharts stats={stats.data} />
        </Suspense>
      ) : (
        <Skeleton h={260} radius="md" />
      )}
      {stats.data && <PollFigures polls={stats.data.polls} />}
      <Exports token={token} onExpired={onExpired} />
    </Stack>
  );
}
