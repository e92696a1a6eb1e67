import { Button, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { LIMITS, MEMORY_TEXTS } from '../../../shared/constants.ts';
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
      title={MEMORY_TEXTS.shareMomentsTitle(eventName)}
      size={640}
      centered={false}
      closeOnClickOutside={!posting}
      closeOnEscape={!posting}
    >
      {posted ? (
        <PostedPanel onDone={close}>
          {first?.status === 'pending' ? (
            <Text>
              Your {posted.result.memories.length === 1 ? 'moment' : 'moments'} will join the
              gallery once approved. You can post{' '}
              {posted.result.memories.length === 1 ? 'it' : 'them'} to your Twitter feed now!
            </Text>
          ) : (
            <Text>
              Your {posted.result.memories.length === 1 ? 'moment is' : 'moments are'} in the
              gallery. Now post {posted.result.memories.length === 1 ? 'it' : 'them'} to your
              Twitter feed!
            </Text>
          )}
          <ShareButtons
            title={MEMORY_TEXTS.shareMomentsTitle(eventName)}
            text={text}
            url={url}
            files={posted.files}
          />
        </PostedPanel>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text c="dimmed">
              Upload your favourite photos or videos from {eventName}, add a caption, and post them
              to your Twitter feed. They join the live gallery too.
            </Text>
            <MemoryFilePicker selection={selection} error={form.errors.files} disabled={posting} />
            <Textarea
              label="Caption"
              placeholder={`My favourite moment at ${eventName}…`}
              required
              maxLength={LIMITS.captionMax}
              {...form.getInputProps('caption')}
              disabled={posting}
            />
            <UploadProgress value={progress} />
            <Button
              type="submit"
              size="lg"
              disabled={posting}
              leftSection={<IconSparkles size={20} />}
            >
              {posting ? 'Sharing . . .' : 'Share Moments'}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
