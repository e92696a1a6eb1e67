import { Badge, Blockquote, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import {
  REPORT_CATEGORIES,
  type ReportedMemory,
  type ReportCategory,
} from '../../../shared/schemas/report.ts';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { useLiveUpdates } from '../../lib/live.ts';
import { ADMIN_REPORTS_KEY, useAdminReports } from './api/admin-reports.ts';
import { useApproveAdminMedia } from './api/approve-admin-media.ts';
import { useDeleteAdminMedia } from './api/delete-admin-media.ts';
import { isGone, isUnauthorized } from './api/errors.ts';
import { AdminMemoryCard } from './admin-memory-card.tsx';
import { useSessionExpiry } from './use-session-expiry.ts';
import { EmptyList, LoadError } from './list-notices.tsx';

const GRID_COLS = { base: 1, xs: 2, md: 3, lg: 4 };
/** The reasons a card quotes; the count says how many there are. */
const QUOTED = 3;

/**
 * The reported memories, live: a new report, a memory kept, hidden or deleted refetches the list
 * (polled every 2 s as the fallback), in the admin's moderation room.
 */
function useLiveReports(token: string) {
  const refetch = { queryKey: ADMIN_REPORTS_KEY };
  useLiveUpdates({
    room: { room: 'moderation', token },
    on: {
      reportsChanged: (_payload, client) => void client.invalidateQueries(refetch),
      memoryUpdated: (_payload, client) => void client.invalidateQueries(refetch),
      memoryDeleted: (_payload, client) => void client.invalidateQueries(refetch),
    },
    refetchOnConnect: [ADMIN_REPORTS_KEY],
  });
}

/** How many memories are reported, for the tab's label; null when none is. */
export function useReportsCount(token: string): string | null {
  const reports = useAdminReports(token);
  useLiveReports(token);
  const count = reports.data?.length ?? 0;
  return count === 0 ? null : String(count);
}

/** "2 × Inappropriate, 1 × This is me…": the report's choices, most given first. */
function categoryCounts(entry: ReportedMemory): [ReportCategory, number][] {
  const counts = new Map<ReportCategory, number>();
  for (const report of entry.reports) {
    counts.set(report.category, (counts.get(report.category) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/** What one reported memory's card says under its caption: how many, why, hidden or not. */
function ReportSummary({ entry }: { entry: ReportedMemory }) {
  const typed = entry.reports.filter(
    (report) => report.reason !== REPORT_CATEGORIES[report.category],
  );
  return (
    <Stack gap={6} mt={6}>
      <Group gap={6}>
        <Badge color="red" variant="light">
          {entry.reporters === 1 ? 'Reported by 1 person' : `Reported by ${entry.reporters} people`}
        </Badge>
        {entry.memory.status === 'pending' && (
          <Badge color="orange" variant="light">
            Hidden
          </Badge>
        )}
      </Group>
      <Text fz="xs">
        {categoryCounts(entry)
          .map(([category, count]) => `${count} × ${REPORT_CATEGORIES[category]}`)
          .join(', ')}
      </Text>
      {typed.slice(0, QUOTED).map((report) => (
        <Blockquote key={report._id} p={6} fz="xs" color="gray" dir="auto">
          {report.reason}
        </Blockquote>
      ))}
    </Stack>
  );
}

/**
 * "Reports": the memories people asked to take down (decision 216), most recently reported
 * first, with how many people did and why. Keep publishes the memory again (if reports hid it)
 * and dismisses its reports; Remove deletes it with its files, each in one tap.
 */
export function AdminReports({ token, onExpired }: { token: string; onExpired: () => void }) {
  const reports = useAdminReports(token);
  const keeping = useApproveAdminMedia(token);
  const deletion = useDeleteAdminMedia(token);
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  useLiveReports(token);
  const expired = useSessionExpiry(reports.error, onExpired);

  const client = useQueryClient();
  /** Done (or failed): a decided memory leaves the list at once; a failed one comes back. */
  const settle = (id: string, decided: boolean) => {
    if (decided) {
      client.setQueryData<ReportedMemory[]>(ADMIN_REPORTS_KEY, (data) =>
        data?.filter((entry) => entry.memory._id !== id),
      );
    }
    setBusy((ids) => {
      const next = new Set(ids);
      next.delete(id);
      return next;
    });
  };
  const failed = (what: string) => (error: unknown) => {
    if (isGone(error)) return;
    if (isUnauthorized(error)) {
      onExpired();
      return;
    }
    toastFailed(error, 'Please try again.', `Could not ${what} the memory`);
  };
  const keep = (memory: Memory) => {
    setBusy((ids) => new Set(ids).add(memory._id));
    keeping.mutate(memory._id, {
      onSuccess: () => toastDone(`Kept the memory by ${memory.username}: its reports are closed.`),
      onError: failed('keep'),
      onSettled: (_memory, error) => settle(memory._id, !error || isGone(error)),
    });
  };
  const remove = (memory: Memory) => {
    setBusy((ids) => new Set(ids).add(memory._id));
    deletion.mutate(memory._id, {
      onSuccess: () => toastDone(`Removed the memory by ${memory.username}.`),
      onError: failed('remove'),
      onSettled: (_message, error) => settle(memory._id, !error || isGone(error)),
    });
  };

  const entries = (reports.data ?? []).filter((entry) => !busy.has(entry.memory._id));
  return (
    <Stack gap="sm">
      {reports.isError && !expired && <LoadError>The reports could not load.</LoadError>}
      {reports.data && entries.length === 0 ? (
        <EmptyList icon={IconCircleCheck}>Nobody has reported a memory.</EmptyList>
      ) : (
        <>
          {entries.length > 0 && (
            <Text fz="sm" c="dimmed" aria-live="polite">
              {entries.length === 1 ? '1 reported memory' : `${entries.length} reported memories`},
              most recently reported first
            </Text>
          )}
          <SimpleGrid cols={GRID_COLS} spacing="sm">
            {entries.map((entry) => (
              <AdminMemoryCard
                key={entry.memory._id}
                memory={entry.memory}
                onApprove={keep}
                onDelete={remove}
                labels={{ approve: 'Keep', delete: 'Remove' }}
              >
                <ReportSummary entry={entry} />
              </AdminMemoryCard>
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
