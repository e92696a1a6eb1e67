import { SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { useLiveUpdates } from '../../lib/live.ts';
import { memoriesOf, useAdminMedia } from './api/admin-media.ts';
import { useApproveAdminMedia } from './api/approve-admin-media.ts';
import { useDeleteAdminMedia } from './api/delete-admin-media.ts';
import { isGone, isUnauthorized } from './api/errors.ts';
import { useSessionExpiry } from './use-session-expiry.ts';
import { AdminMemoryCard } from './admin-memory-card.tsx';
import { DeleteMemoryModal } from './delete-memory-modal.tsx';
import { LoadMoreButton } from './load-more-button.tsx';
import { EmptyList, LoadError } from './list-notices.tsx';

const GRID_COLS = { base: 2, sm: 3, md: 4 };

/** How many memories await approval, for the tab's label (the first page's worth, then "+"). */
export function usePendingCount(token: string): string | null {
  const pending = useAdminMedia(token, '', 'pending');
  // Memories awaiting approval are announced in the admin's moderation room only.
  useLiveUpdates({ room: { room: 'moderation', token } });
  const count = pending.data?.pages.flat().length ?? 0;
  if (count === 0) return null;
  return pending.hasNextPage ? `${count}+` : String(count);
}

/**
 * "Awaiting approval": the memories posted while approval is on, oldest waiting last, each with
 * Approve (published everywhere at once) and Delete. Live through the admin's moderation room
 * (where pending memories are announced), polled every 2 s as the fallback.
 */
export function AdminPendingMemories({
  token,
  onExpired,
}: {
  token: string;
  onExpired: () => void;
}) {
  const pending = useAdminMedia(token, '', 'pending');
  const approval = useApproveAdminMedia(token);
  const deletion = useDeleteAdminMedia(token);
  const [confirming, setConfirming] = useState<Memory | null>(null);
  const [approving, setApproving] = useState<ReadonlySet<string>>(() => new Set());
  // The room where memories awaiting approval are announced (the list updates through the
  // moderation lists' live handlers of the admin screen).
  useLiveUpdates({ room: { room: 'moderation', token } });

  const expired = useSessionExpiry(pending.error, onExpired);

  const memories = useMemo(
    () => memoriesOf(pending.data, (memory) => memory.status === 'pending'),
    [pending.data],
  );

  const failed = (error: unknown, what: string) => {
    if (isUnauthorized(error)) {
      onExpired();
      return;
    }
    toastFailed(error, 'Please try again.', `Could not ${what} the memory`);
  };

  const approve = (memory: Memory) => {
    setApproving((ids) => new Set(ids).add(memory._id));
    approval.mutate(memory._id, {
      onSuccess: () => toastDone(`Approved the memory by ${memory.username}: it is live.`),
      onError: (error) => {
        if (!isGone(error)) failed(error, 'approve');
      },
      onSettled: () =>
        setApproving((ids) => {
          const next = new Set(ids);
          next.delete(memory._id);
          return next;
        }),
    });
  };

  const confirmDelete = (memory: Memory) => {
    setConfirming(null);
    deletion.mutate(memory._id, {
      onSuccess: () => toastDone(`Deleted the memory by ${memory.username}.`),
      onError: (error) => {
        if (!isGone(error)) failed(error, 'delete');
      },
    });
  };

  return (
    <Stack gap="sm">
      {pending.isError && !expired && (
        <LoadError>The memories awaiting approval could not load.</LoadError>
      )}
      {pending.data && memories.length === 0 ? (
        <EmptyList icon={IconCircleCheck}>No memories are awaiting approval.</EmptyList>
      ) : (
        <>
          {memories.length > 0 && (
            <Text fz="sm" c="dimmed" aria-live="polite">
              {memories.length}
              {pending.hasNextPage ? '+' : ''}{' '}
              {memories.length === 1 ? 'memory awaits' : 'memories await'} your approval
            </Text>
          )}
          <SimpleGrid cols={GRID_COLS} spacing="sm">
            {memories.map((memory) => (
              <AdminMemoryCard
                key={memory._id}
                memory={memory}
                onApprove={approve}
                approving={approving.has(memory._id)}
                onDelete={setConfirming}
              />
            ))}
          </SimpleGrid>
          <LoadMoreButton list={pending} />
        </>
      )}
      <DeleteMemoryModal
        memory={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={confirmDelete}
      />
    </Stack>
  );
}
