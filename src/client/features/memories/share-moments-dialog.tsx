import { Button, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { LIMITS } from '../../../shared/constants.ts';
import { useMessages } from '../../i18n/language.ts';
import { useEventName } from '../../lib/event-name.ts';
import { MemoryFilePicker } from './memory-file-picker.tsx';
import { UploadProgress } from './memory-form-modal.tsx';
import { PostedPanel } from './memory-shared-modal.tsx';
import { ShareButtons } from './share-buttons.tsx';
import { memoryPageUrl, shareText } from './share-links.ts';
import { type MemoryPosted, useMemoryPost } from './use-memory-post.ts';

/**
 * "Share Your {event} Moments!": pick photos or videos (previews, oversize files turned away
 * with the real limit), add a caption, post them to the gallery (field `media`), then post them
 * on X through its web intent, or with the device's share sheet where the browser has one.
 */
export function ShareMomentsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t, rich } = useMessages();
  const eventName = useEventName();
  // What was posted stays for the device's share sheet, which can carry the files themselves.
  const [posted, setPosted] = useState<MemoryPosted | null>(null);
  const { form, selection, progress, posting, submit } = useMemoryPost('media', setPosted);

  const close = () => {
    if (posting) return;
    setPosted(null);
    onClose();
  };

  const first = posted?.result.memories[0];
  const text = posted ? shareText(posted.caption, eventName) : '';
  const url = first ? memoryPageUrl(first._id) : undefined;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={rich('share.momentsTitle', { eventName: <bdi>{eventName}</bdi> })}
      size={640}
      centered={false}
      closeOnClickOutside={!posting}
      closeOnEscape={!posting}
    >
      {posted ? (
        <PostedPanel onDone={close}>
          <Text>
            {first?.status === 'pending'
              ? t('share.postedPending', { count: posted.result.memories.length })
              : t('share.postedLive', { count: posted.result.memories.length })}
          </Text>
          <ShareButtons
            title={t('share.momentsTitle', { eventName })}
            text={text}
            url={url}
            files={posted.files}
          />
        </PostedPanel>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text c="dimmed">{rich('share.intro', { eventName: <bdi>{eventName}</bdi> })}</Text>
            <MemoryFilePicker selection={selection} error={form.errors.files} disabled={posting} />
            <Textarea
              label={t('share.captionLabel')}
              placeholder={t('share.captionPlaceholder', { eventName })}
              required
              maxLength={LIMITS.captionMax}
              {...form.getInputProps('caption')}
              disabled={posting}
              dir="auto"
            />
            <UploadProgress value={progress} />
            <Button
              type="submit"
              size="lg"
              disabled={posting}
              leftSection={<IconSparkles size={20} />}
            >
              {posting ? t('share.submitting') : t('share.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
