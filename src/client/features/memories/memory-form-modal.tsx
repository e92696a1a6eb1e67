import { Button, Progress, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { LIMITS, MEMORY_TEXTS } from '../../../shared/constants.ts';
import type { MemoryPostResponse } from '../../../shared/schemas/memory.ts';
import { MemoryFilePicker } from './memory-file-picker.tsx';
import { useMemoryPost } from './use-memory-post.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSharedFiles } from './use-shared-files.ts';

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
  const { form, selection, progress, posting, waiting, retrying, submit } = useMemoryPost(
    'files',
    ({ result }) => onShared(result),
    onClose,
  );
  useSharedFiles(opened, selection.add);

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Share a Memory"
      size={640}
      centered={false}
      onSubmit={submit}
      busy={posting}
    >
      <Textarea
        label={MEMORY_TEXTS.captionLabel}
        placeholder="What made this moment special?"
        required
        maxLength={LIMITS.captionMax}
        {...form.getInputProps('caption')}
        disabled={posting}
        data-autofocus
      />
      <MemoryFilePicker selection={selection} error={form.errors.files} disabled={posting} />
      <UploadProgress value={progress} />
      {waiting && (
        <Text size="sm" c="dimmed" role="status">
          Waiting for connection… the upload goes on where it stopped.
        </Text>
      )}
      {retrying && (
        <Text size="sm" c="dimmed" role="status">
          The server is busy… your memory is kept, and sent by itself in a moment.
        </Text>
      )}
      <Button type="submit" size="lg" disabled={posting} leftSection={<IconSend size={20} />}>
        {posting ? MEMORY_TEXTS.submitting : MEMORY_TEXTS.submit}
      </Button>
    </FormDialog>
  );
}
