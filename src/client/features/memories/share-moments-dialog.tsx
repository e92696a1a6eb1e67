import { Button, Modal, Stack, Text, Textarea, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconSparkles } from '@tabler/icons-react';
import { type SubmitEvent, useState } from 'react';
import { LIMITS, MEMORY_TEXTS, TOAST_AUTO_CLOSE } from '../../../shared/constants.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { useEventName } from '../../lib/event-name.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { useCreateMemory } from './api/create-memory.ts';
import { MemoryFilePicker } from './memory-file-picker.tsx';
import { UploadProgress, captionError } from './memory-form-modal.tsx';
import { ShareButtons } from './share-buttons.tsx';
import { memoryPageUrl, shareText } from './share-links.ts';
import { useSelectedFiles } from './use-selected-files.ts';

interface Posted {
  memories: Memory[];
  caption: string;
  /** Kept for the device's share sheet, which can carry the files themselves. */
  files: File[];
}

/**
 * "Share Your {event} Moments!": pick photos or videos (previews, oversize files turned away
 * with the real limit), add a caption, post them to the gallery (field `media`), then post them
 * on X through its web intent, or with the device's share sheet where the browser has one.
 */
export function ShareMomentsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const eventName = useEventName();
  const username = useStoredUsername();
  const selection = useSelectedFiles();
  const [caption, setCaption] = useState('');
  const [errors, setErrors] = useState<{ caption?: string | null; files?: string | null }>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [posted, setPosted] = useState<Posted | null>(null);
  const create = useCreateMemory();
  const submitting = create.isPending;

  const close = () => {
    if (submitting) return;
    setPosted(null);
    onClose();
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = {
      caption: captionError(caption),
      files: selection.files.length === 0 ? 'Add at least one photo or video.' : null,
    };
    setErrors(next);
    if (next.caption || next.files || !username) return;
    const files = selection.files;
    setProgress(0);
    create.mutate(
      { caption, username, files, field: 'media', onProgress: setProgress },
      {
        onSuccess: (result) => {
          notifications.show({
            color: 'green',
            message: result.message,
            autoClose: TOAST_AUTO_CLOSE,
          });
          setPosted({ memories: result.memories, caption: caption.trim(), files });
          setCaption('');
          selection.clear();
          setProgress(null);
        },
        onError: (error) => {
          setProgress(null);
          notifications.show({
            color: 'red',
            message: MEMORY_TEXTS.postFailed(errorMessage(error, MEMORY_TEXTS.postFailedFallback)),
            autoClose: TOAST_AUTO_CLOSE,
          });
        },
      },
    );
  };

  const first = posted?.memories[0];
  const text = posted ? shareText(posted.caption, eventName) : '';
  const url = first ? memoryPageUrl(first._id) : undefined;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={MEMORY_TEXTS.shareMomentsTitle(eventName)}
      size={640}
      closeOnClickOutside={!submitting}
      closeOnEscape={!submitting}
      styles={{ title: { fontWeight: 800, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {posted ? (
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={64} radius="xl" color="green" variant="light" aria-hidden>
            <IconCircleCheck size={40} />
          </ThemeIcon>
          <Text>
            Your {posted.memories.length === 1 ? 'moment is' : 'moments are'} in the gallery. Now
            post {posted.memories.length === 1 ? 'it' : 'them'} to your Twitter feed!
          </Text>
          <ShareButtons
            title={MEMORY_TEXTS.shareMomentsTitle(eventName)}
            text={text}
            url={url}
            files={posted.files}
          />
          <Button variant="subtle" onClick={close}>
            Done
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text c="dimmed">
              Upload your favourite photos or videos from {eventName}, add a caption, and post them
              to your Twitter feed. They join the live gallery too.
            </Text>
            <MemoryFilePicker
              selection={{
                ...selection,
                add: (files) => {
                  selection.add(files);
                  if (errors.files) setErrors((e) => ({ ...e, files: null }));
                },
              }}
              error={errors.files}
              disabled={submitting}
            />
            <Textarea
              label="Caption"
              placeholder={`My favourite moment at ${eventName}…`}
              required
              autosize
              minRows={2}
              maxRows={6}
              maxLength={LIMITS.captionMax}
              value={caption}
              onChange={(event) => {
                setCaption(event.currentTarget.value);
                if (errors.caption) setErrors((e) => ({ ...e, caption: null }));
              }}
              error={errors.caption}
              disabled={submitting}
            />
            <UploadProgress value={progress} />
            <Button
              type="submit"
              size="lg"
              disabled={submitting}
              leftSection={<IconSparkles size={20} />}
            >
              {submitting ? 'Sharing . . .' : 'Share Moments'}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
