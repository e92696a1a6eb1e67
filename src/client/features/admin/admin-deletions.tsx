import { Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format-time.ts';
import { useAdminAudit } from './api/admin-audit.ts';
import { useSessionExpiry } from './use-session-expiry.ts';
import { EmptyList } from './list-notices.tsx';

/** The moderation log: the latest deletions, who made them and when. */
export function AdminDeletions({ token, onExpired }: { token: string; onExpired: () => void }) {
  const audit = useAdminAudit(token);
  useSessionExpiry(audit.error, onExpired);

  if (audit.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading deletions" />
      </Center>
    );
  }
  if (audit.isError) {
    return (
      <RetryAlert title="Could not load the deletions" onRetry={() => void audit.refetch()}>
        {errorMessage(audit.error, 'Please try again.')}
      </RetryAlert>
    );
  }
  if (audit.data.length === 0) {
    return <EmptyList icon={IconHistory}>No deletions yet.</EmptyList>;
  }
  return (
    <Stack
      gap="xs"
      component="ol"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label="Recent deletions"
    >
      {audit.data.map((entry) => (
        <Paper component="li" key={entry._id} withBorder radius="md" p="sm">
          <Text fz="sm">
            <strong>{entry.adminUsername}</strong> deleted a memory by{' '}
            <strong>{entry.memory.username || 'someone'}</strong>
          </Text>
          {entry.memory.text && (
            <Text fz="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              “{entry.memory.text}”
            </Text>
          )}
          <Text fz="xs" c="dimmed" component="time" dateTime={entry.createdAt}>
            {formatDateTime(entry.createdAt)}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}
