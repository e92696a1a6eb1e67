import { Button, Modal, Progress, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconSend } from '@tabler/icons-react';
import { type SubmitEvent, useState } from 'react';
import { LIMITS, MEMORY_TEXTS, TOAST_AUTO_CLOSE } from '../../../shared/constants.ts';
import { type MemoryPostResponse, memoryPostFieldsSchema } from '../../../shared/schemas/memory.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { useCreateMemory } from './api/create-memory.ts';
import { MemoryFilePicker } from './memory-file-picker.tsx';
import { useSelectedFiles } from './use-selected-files.ts';

const NO_FILES = 'Add at least one photo or video.';

/** The caption check the server makes, from the same schema. */
export function captionError(caption: string): string | null {
  const parsed = memoryPostFieldsSchema.shape.caption.safeParse(caption);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Caption is required');
}

/** The upload's progress while a post is sent. */
export function UploadProgress({ value }: { value: number | null }) {
  if (value === null) return null;
  const percent = Math.round(value * 100);
  return (
    <Stack gap={4}>
      <Progress
        value={percent}
        size="lg"
        radius="xl"
        animated={percent < 100}
        aria-label="Upload progress"
      />
      <Text size="sm" c="dimmed" aria-live="polite">
        {percent < 100 ? `Uploading… ${percent}%` : 'Processing your memory…'}
      </Text>
    </Stack>
  );
}

/**
 * The memory form: "Add a Caption", photos and videos with previews, "Post Your Memory!".
 * Success closes it and clears it (the caller shows "Memory Shared"); failure keeps it as it was.
 */
export function MemoryFormModal({
  opened,
  onClose,
  onShared,
}: {
  opened: boolean;
  onClose: () => void;
  onShared: (result: MemoryPostResponse) => void;
}) {
  const username = useStoredUsername();
  const selection = useSelectedFiles();
  const [caption, setCaption] = useState('');
  const [errors, setErrors] = useState<{ caption?: string | null; files?: string | null }>({});
  const [progress, setProgress] = useState<number | null>(null);
  const create = useCreateMemory();
  const posting = create.isPending;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = {
      caption: captionError(caption),
      files: selection.files.length === 0 ? NO_FILES : null,
    };
    setErrors(next);
    if (next.caption || next.files || !username) return;
    setProgress(0);
    create.mutate(
      { caption, username, files: selection.files, onProgress: setProgress },
      {
        onSuccess: (result) => {
          notifications.show({
            color: 'green',
            message: result.message,
            autoClose: TOAST_AUTO_CLOSE,
          });
          setCaption('');
          selection.clear();
          setErrors({});
          setProgress(null);
          onShared(result);
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

  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!posting) onClose();
      }}
      title="Share a Memory"
      size={640}
      closeOnClickOutside={!posting}
      closeOnEscape={!posting}
      styles={{ title: { fontWeight: 800, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Textarea
            label={MEMORY_TEXTS.captionLabel}
            placeholder="What made this moment special?"
            required
            autosize
            minRows={3}
            maxRows={8}
            maxLength={LIMITS.captionMax}
            value={caption}
            onChange={(event) => {
              setCaption(event.currentTarget.value);
              if (errors.caption) setErrors((e) => ({ ...e, caption: null }));
            }}
            error={errors.caption}
            disabled={posting}
            data-autofocus
          />
          <MemoryFilePicker
            selection={{
              ...selection,
              add: (files) => {
                selection.add(files);
                if (errors.files) setErrors((e) => ({ ...e, files: null }));
              },
            }}
            error={errors.files}
            disabled={posting}
          />
          <UploadProgress value={progress} />
          <Button type="submit" size="lg" disabled={posting} leftSection={<IconSend size={20} />}>
            {posting ? MEMORY_TEXTS.submitting : MEMORY_TEXTS.submit}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
