import { Button, Progress, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { LIMITS } from '../../../shared/constants.ts';
import type { MemoryPostResponse } from '../../../shared/schemas/memory.ts';
import { useT } from '../../i18n/language.ts';
import { MemoryFilePicker } from './memory-file-picker.tsx';
import { useMemoryPost } from './use-memory-post.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSharedFiles } from './use-shared-files.ts';

/** The upload's progress while a post is sent. */
export function UploadProgress({ value }: { value: number | null }) {
  const t = useT();
  if (value === null) return null;
  const percent = Math.round(value * 100);
  return (
    <Stack gap={4}>
      <Progress
        value={percent}
        size="lg"
        radius="xl"
        animated={percent < 100}
        aria-label={t('memories.uploadProgress')}
      />
      <Text size="sm" c="dimmed" aria-live="polite">
        {percent < 100
          ? t('memories.uploading', { progress: percent / 100 })
          : t('memories.processing')}
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
  const t = useT();
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
      title={t('memories.formTitle')}
      size={640}
      centered={false}
      onSubmit={submit}
      busy={posting}
    >
      <Textarea
        label={t('memories.captionLabel')}
        placeholder={t('memories.captionPlaceholder')}
        required
        maxLength={LIMITS.captionMax}
        {...form.getInputProps('caption')}
        disabled={posting}
        dir="auto"
        data-autofocus
      />
      <MemoryFilePicker selection={selection} error={form.errors.files} disabled={posting} />
      <UploadProgress value={progress} />
      {waiting && (
        <Text size="sm" c="dimmed" role="status">
          {t('memories.waitingConnection')}
        </Text>
      )}
      {retrying && (
        <Text size="sm" c="dimmed" role="status">
          {t('memories.serverBusy')}
        </Text>
      )}
      <Button
        type="submit"
        size="lg"
        disabled={posting}
        leftSection={<IconSend size={20} className="confab-flip-rtl" />}
      >
        {posting ? t('memories.submitting') : t('memories.submit')}
      </Button>
    </FormDialog>
  );
}
