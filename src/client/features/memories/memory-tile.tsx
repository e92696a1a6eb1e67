import { ActionIcon, AspectRatio, Badge, Card, Group, Text, UnstyledButton } from '@mantine/core';
import { IconClockHour4, IconDownload, IconStack2, IconTrash } from '@tabler/icons-react';
import { memo } from 'react';
import { useT } from '../../i18n/language.ts';
import { MemoryMediaView, downloadUrl, logUndownloadable } from './memory-media-view.tsx';
import type { MemoryPost } from './memory-posts.ts';
import classes from './memories.module.css';

/**
 * One gallery tile: a post (decision 143). Its first memory's thumbnail in a square that keeps
 * its place while loading (a video's picture with a play mark), a badge with the post's count when
 * it holds more than one, the author and caption, and a download icon for the first file.
 * Opening it shows the viewer at the post's first memory. The attendee's own posts have a
 * delete action. A `priority` tile (the first row) loads its thumbnail at once.
 */
export const MemoryTile = memo(function MemoryTile({
  post,
  onOpen,
  onDelete,
  priority = false,
}: {
  post: MemoryPost;
  onOpen: (post: MemoryPost) => void;
  /** Given for the attendee's own posts. */
  onDelete?: ((post: MemoryPost) => void) | undefined;
  priority?: boolean;
}) {
  const t = useT();
  const [memory] = post.items;
  const count = post.items.length;
  const href = downloadUrl(memory);
  const open = () => onOpen(post);
  const openLabel =
    count > 1
      ? t('memories.openPost', { username: memory.username, count })
      : t('memories.openMemory', { username: memory.username });
  return (
    <Card component="article" withBorder padding={0} radius="md" className={classes.tile}>
      <div className={classes.tileMediaBox}>
        <AspectRatio ratio={1}>
          {/* A photo's or a video's picture alike: a tap anywhere on it opens the viewer. */}
          <UnstyledButton className={classes.tileMediaButton} onClick={open} aria-label={openLabel}>
            <MemoryMediaView memory={memory} size="thumb" priority={priority} />
          </UnstyledButton>
        </AspectRatio>
        {count > 1 && (
          <Badge
            className={classes.tileCount}
            leftSection={<IconStack2 size={14} aria-hidden />}
            variant="filled"
            color="dark"
            radius="sm"
            aria-label={t('memories.fileCount', { count })}
          >
            {count}
          </Badge>
        )}
        {memory.status === 'pending' && (
          // Only its poster sees it: the admin has not approved it yet.
          <Badge
            className={classes.pendingBadge}
            color="dark.7"
            variant="filled"
            leftSection={<IconClockHour4 size={14} aria-hidden />}
          >
            {t('memories.awaitingApproval')}
          </Badge>
        )}
        {onDelete && (
          <ActionIcon
            className={classes.tileDelete}
            variant="filled"
            color="dark"
            radius="xl"
            aria-label={count > 1 ? t('memories.deletePost') : t('memories.deleteMemory')}
            onClick={() => onDelete(post)}
          >
            <IconTrash size={18} />
          </ActionIcon>
        )}
      </div>
      <Group className={classes.tileFooter} wrap="nowrap" gap={2} align="center">
        <UnstyledButton className={classes.tileText} onClick={open}>
          <Text size="sm" fw={700} truncate="end" dir="auto">
            {memory.username}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={1} dir="auto">
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
            aria-label={t('memories.downloadBy', { username: memory.username })}
          >
            <IconDownload size={20} />
          </ActionIcon>
        ) : (
          <ActionIcon
            variant="subtle"
            size={44}
            radius="xl"
            aria-label={t('memories.downloadBy', { username: memory.username })}
            onClick={() => logUndownloadable(memory)}
          >
            <IconDownload size={20} />
          </ActionIcon>
        )}
      </Group>
    </Card>
  );
});
