import '@mantine/charts/styles.layer.css';
import { BarChart } from '@mantine/charts';
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { AdminStats } from '../../../shared/schemas/settings.ts';
import { formatHour } from '../../lib/format-time.ts';

function ChartCard({
  title,
  empty,
  children,
}: {
  title: string;
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} fz="md">
          {title}
        </Title>
        {empty ? (
          <Text c="dimmed" py="xl" ta="center">
            {empty}
          </Text>
        ) : (
          <figure aria-label={title} style={{ margin: 0 }}>
            {children}
          </figure>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The overview's charts (Mantine's charts, on recharts): questions and votes per speaker, and
 * memories per hour. Loaded with the overview, not with the console's first screen.
 */
export default function AdminCharts({ stats }: { stats: AdminStats }) {
  const speakers = stats.perSpeaker.slice(0, 12);
  const hours = stats.memoriesPerHour.slice(-24).map((row) => ({
    hour: formatHour(row.hour),
    memories: row.memories,
  }));
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <ChartCard
        title="Questions and votes per speaker"
        empty={speakers.length === 0 ? 'No speakers yet.' : null}
      >
        <BarChart
          h={Math.max(160, speakers.length * 44)}
          data={speakers}
          dataKey="name"
          orientation="vertical"
          yAxisProps={{ width: 110 }}
          series={[
            { name: 'questions', label: 'Questions', color: 'brand.6' },
            { name: 'votes', label: 'Votes', color: 'teal.7' },
          ]}
          withLegend
        />
      </ChartCard>
      <ChartCard title="Memories per hour" empty={hours.length === 0 ? 'No memories yet.' : null}>
        <BarChart
          h={220}
          data={hours}
          dataKey="hour"
          series={[{ name: 'memories', label: 'Memories', color: 'brand.6' }]}
        />
      </ChartCard>
    </SimpleGrid>
  );
}
