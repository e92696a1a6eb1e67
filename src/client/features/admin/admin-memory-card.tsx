import { AspectRatio, Button, Center, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCheck, IconPhotoOff, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { formatDateTime } from '../../lib/format-time.ts';
import classes from './admin-screen.module.css';

function MemoryMedia({ memory }: { memory: Memory }) {
  const [failed, setFailed] = useState(false);
  const isVideo = memory.contentType.startsWith('video/');
  if (failed) {
    return (
      <Center h="100%" c="dimmed">
        <Stack gap={4} align="center">
          <IconPhotoOff size={28} aria-hidden />
          <Text fz="xs">Media unavailable</Text>
        </Stack>
      </Center>
    );
  }
  if (isVideo) {
    return (
      <video
        src={memory.media}
        poster={memory.thumbnail ?? undefined}
        controls
        preload={memory.thumbnail ? 'none' : 'metadata'}
        playsInline
        muted
        aria-label={`Video by ${memory.username}`}
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <img
      src={memory.thumbnail ?? memory.media}
      alt={
        memory.text ? `Photo by ${memory.username}: ${memory.text}` : `Photo by ${memory.username}`
      }
      loading="lazy"
      decoding="async"
      width={memory.width ?? undefined}
      height={memory.height ?? undefined}
      onError={() => setFailed(true)}
    />
  );
}

/**
 * One memory under moderation: its media, who posted it, the caption, and Delete (with
 * `onApprove`, Approve beside it: a memory awaiting approval). `labels` rename the two actions
 * (a reported memory's Keep and Remove); `children` go under the caption.
 */
export function AdminMemoryCard({
  memory,
  onDelete,
  onApprove,
  approving = false,
  labels = { approve: 'Approve', delete: 'Delete' },
  children,
}: {
  memory: Memory;
  onDelete: (memory: Memory) => void;
  onApprove?: ((memory: Memory) => void) | undefined;
  approving?: boolean;
  labels?: { approve: string; delete: string };
  children?: ReactNode;
}) {
  const deleteButton = (
    <Button
      color="red"
      variant="light"
      radius={0}
      h={44}
      fullWidth
      leftSection={<IconTrash size={18} />}
      onClick={() => onDelete(memory)}
    >
      {labels.delete}
    </Button>
  );
  return (
    <Paper
      component="article"
      aria-label={`Memory by ${memory.username}`}
      withBorder
      radius="md"
      className={classes.card}
    >
      <AspectRatio ratio={4 / 3} className={classes.media}>
        <MemoryMedia memory={memory} />
      </AspectRatio>
      <div className={classes.cardBody}>
        <Stack gap={2} p="xs" style={{ flex: 1 }}>
          <Text fw={700} fz="sm" truncate title={memory.username}>
            {memory.username}
          </Text>
          <Text fz="sm" lineClamp={3} className={classes.caption} title={memory.text}>
            {memory.text}
          </Text>
          <Text fz="xs" c="dimmed" component="time" dateTime={memory.createdAt} mt="auto">
            {formatDateTime(memory.createdAt)}
          </Text>
          {children}
        </Stack>
        {onApprove ? (
          <Group gap={0} grow wrap="nowrap">
            <Button
              color="green.9"
              radius={0}
              h={44}
              leftSection={<IconCheck size={18} />}
              loading={approving}
              onClick={() => onApprove(memory)}
            >
              {labels.approve}
            </Button>
            {deleteButton}
          </Group>
        ) : (
          deleteButton
        )}
      </div>
    </Paper>
  );
}
