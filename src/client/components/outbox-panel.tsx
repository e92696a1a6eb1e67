import { ActionIcon, Affix, Group, Image, Paper, Progress, Stack, Text } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { IconPhoto, IconVideo, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { directionOf } from '../../shared/i18n/languages.ts';
import { type Translate, useMessages } from '../i18n/language.ts';
import { type QueueEntry, cancelQueued, useQueue } from '../lib/offline-queue.ts';
import { isDrawableImage } from '../lib/drawable-files.ts';
import classes from './outbox-panel.module.css';

/**
 * A picked file as a small picture; a video, a HEIC and any image the browser fails to draw
 * show as a placeholder with the file's name (cut with an ellipsis, whole in its tooltip).
 */
function Thumbnail({ file }: { file: File }) {
  const url = useMemo(() => (isDrawableImage(file) ? URL.createObjectURL(file) : null), [file]);
  const [failed, setFailed] = useState(false);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (!url || failed) {
    return (
      <Group
        gap={4}
        wrap="nowrap"
        h={40}
        maw={140}
        px={6}
        className={classes.placeholder}
        title={file.name}
        dir="auto"
      >
        {file.type.startsWith('video/') ? (
          <IconVideo size={16} aria-hidden style={{ flexShrink: 0 }} />
        ) : (
          <IconPhoto size={16} aria-hidden style={{ flexShrink: 0 }} />
        )}
        <Text size="xs" truncate="end">
          {file.name}
        </Text>
      </Group>
    );
  }
  return (
    <Image
      src={url}
      alt={file.name}
      w={40}
      h={40}
      radius="sm"
      fit="cover"
      onError={() => setFailed(true)}
    />
  );
}

function status(entry: QueueEntry, online: boolean, t: Translate): string {
  if (entry.error) return t('app.outboxNotSent', { error: entry.error });
  if (!online || entry.waiting) return t('app.outboxWaiting');
  if (entry.retryAt !== undefined) return t('app.outboxBusy');
  // Whole percents, as the bar shows them.
  if (entry.sending)
    return t('app.outboxSending', { progress: Math.round(entry.progress * 100) / 100 });
  return t('app.outboxQueued');
}

/**
 * What waits to be sent (memories and questions made on a bad network), pinned to the bottom
 * of the screen: each with its files' thumbnails, its state ("Waiting for connection", "The
 * server is busy", "Sending… 40%", or why the server refused it) and a button that cancels it.
 */
export function OutboxPanel() {
  const { t, rich, language } = useMessages();
  const entries = useQueue();
  const { online } = useNetwork();
  if (entries.length === 0) return null;
  // At the start of the line: bottom left, bottom right in a right-to-left language.
  const corner =
    directionOf(language) === 'rtl' ? { bottom: 16, right: 16 } : { bottom: 16, left: 16 };
  return (
    <Affix position={corner} zIndex={150}>
      <Paper
        component="section"
        aria-label={t('app.outboxLabel')}
        shadow="md"
        p="sm"
        withBorder
        maw={360}
      >
        <Stack gap="xs">
          {entries.map((entry) => (
            <Stack key={entry.id} gap={4}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate>
                    {entry.kind === 'memory'
                      ? rich('app.outboxMemory', { label: <bdi>{entry.label}</bdi> })
                      : rich('app.outboxQuestion', { label: <bdi>{entry.label}</bdi> })}
                  </Text>
                  <Text size="xs" c={entry.error ? 'red' : 'dimmed'} role="status">
                    {status(entry, online, t)}
                  </Text>
                </div>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t(
                    entry.kind === 'memory' ? 'app.outboxCancelMemory' : 'app.outboxCancelQuestion',
                    { label: entry.label },
                  )}
                  onClick={() => void cancelQueued(entry.id)}
                >
                  <IconX size={18} />
                </ActionIcon>
              </Group>
              {entry.files.length > 0 && (
                <Group gap={4}>
                  {entry.files.map((file, index) => (
                    <Thumbnail key={`${file.name}-${index}`} file={file} />
                  ))}
                </Group>
              )}
              {entry.sending && online && !entry.waiting && (
                <Progress value={entry.progress * 100} size="sm" />
              )}
            </Stack>
          ))}
        </Stack>
      </Paper>
    </Affix>
  );
}
