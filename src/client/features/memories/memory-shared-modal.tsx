import { Button, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MemoryPostResponse } from '../../../shared/schemas/memory.ts';
import { useMessages, useT } from '../../i18n/language.ts';
import { useEventName } from '../../lib/event-name.ts';
import { ShareButtons } from './share-buttons.tsx';
import { memoryPageUrl, shareText } from './share-links.ts';

/**
 * What a dialog shows once memories are posted: a tick, what became of them (`children`, with
 * the share buttons where there is something to share), and Done.
 */
export function PostedPanel({ onDone, children }: { onDone: () => void; children: ReactNode }) {
  const t = useT();
  return (
    <Stack align="center" gap="md" ta="center">
      <ThemeIcon size={64} radius="xl" color="green" variant="light" aria-hidden>
        <IconCircleCheck size={40} />
      </ThemeIcon>
      {children}
      <Button variant="subtle" onClick={onDone}>
        {t('memories.done')}
      </Button>
    </Stack>
  );
}

/** "Memory Shared": the memory is in the gallery; one tap puts it on the person's social feed. */
export function MemorySharedModal({
  result,
  onClose,
}: {
  result: MemoryPostResponse | null;
  onClose: () => void;
}) {
  const { t, rich } = useMessages();
  const eventName = useEventName();
  const first = result?.memories[0];
  const text = first ? shareText(first.text, eventName) : '';
  const url = first ? memoryPageUrl(first._id) : undefined;
  return (
    <Modal opened={result !== null} onClose={onClose} title={t('memories.sharedTitle')} size="sm">
      <PostedPanel onDone={onClose}>
        {first?.status === 'pending' ? (
          // Its link would show nothing to anyone else yet: no share buttons until approved.
          <Text>{rich('memories.sharedPending', { eventName: <bdi>{eventName}</bdi> })}</Text>
        ) : (
          <>
            <Text>{rich('memories.sharedLive', { eventName: <bdi>{eventName}</bdi> })}</Text>
            <ShareButtons title={eventName} text={text} url={url} />
          </>
        )}
      </PostedPanel>
    </Modal>
  );
}
