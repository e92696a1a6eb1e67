import { ActionIcon, AspectRatio, Badge, Card, Group, Text, UnstyledButton } from '@mantine/core';
import { IconClockHour4, IconDownload } from '@tabler/icons-react';
import { memo } from 'react';
import { MEMORY_TEXTS } from '../../../shared/constants.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { MemoryMediaView, downloadUrl, isVideo, logUndownloadable } from './memory-media-view.tsx';
import classes from './memories.module.css';

/**
 * One gallery tile: the thumbnail in a square that keeps its place while loading (or the video
 * with its controls), the author and caption, and a download icon. Opening it shows the
 * "Download Memory" modal. A `priority` tile (the first row) loads its thumbnail at once.
 */
export const MemoryTile = memo(function MemoryTile({
  memory,
  onOpen,
  priority = false,
}: {
  memory: Memory;
  onOpen: (memory: Memory) => void;
  priority?: boolean;
}) {
  const href = downloadUrl(memory);
  const open = () => onOpen(memory);
  return (
    <Card component="article" withBorder padding={0} radius="md" className={classes.tile}>
      <AspectRatio ratio={1}>
        {isVideo(memory) ? (
          <MemoryMediaView memory={memory} size="thumb" />
        ) : (
          <UnstyledButton
            className={classes.tileMediaButton}
            onClick={open}
            aria-label={`Open memory by ${memory.username}`}
          >
            <MemoryMediaView memory={memory} size="thumb" priority={priority} />
          </UnstyledButton>
        )}
      </AspectRatio>
      {memory.status === 'pending' && (
        // Only its poster sees it: the admin has not approved it yet.
        <Badge
          className={classes.pendingBadge}
          color="dark.7"
          variant="filled"
          leftSection={<IconClockHour4 size={14} aria-hidden />}
        >
          {MEMORY_TEXTS.awaitingApproval}
        </Badge>
      )}
      <Group className={classes.tileFooter} wrap="nowrap" gap={2} align="center">
        <UnstyledButton className={classes.tileText} onClick={open}>
          <Text size="sm" fw={700} truncate="end">
            {memory.username}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {memory.text}
          </Text>
        </UnstyledButton>
        {href ? (
          <ActionIcon
            component="a"
            href={href}
            download
            variant="subtle"
            size={44}
            radius="xl"
            aria-label={`Download memory by ${memory.username}`}
          >
            <IconDownload size={20} />
          </ActionIcon>
        ) : (
          <ActionIcon
            variant="subtle"
            size={44}
            radius="xl"
            aria-label={`Download memory by ${memory.username}`}
            onClick={() => logUndownloadable(memory)}
          >
            <IconDownload size={20} />
          </ActionIcon>
        )}
      </Group>
    </Card>
  );
});
