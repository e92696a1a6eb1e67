import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MEMORY_TEXTS, TOAST_AUTO_CLOSE } from '../../../shared/constants.ts';
import { type MemoryPostResponse, memoryPostFieldsSchema } from '../../../shared/schemas/memory.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { useCreateMemory } from './api/create-memory.ts';
import { useSelectedFiles } from './use-selected-files.ts';

/** The caption as the server checks it. */
const checkCaption = schemaResolver(memoryPostFieldsSchema.pick({ caption: true }), { sync: true });

const NO_FILES = 'Add at least one photo or video.';

/** What was posted: the answer, and the caption and files it was made from. */
export interface MemoryPosted {
  result: MemoryPostResponse;
  caption: string;
  files: File[];
}

/**
 * A form that posts a memory (the memory form and the share dialog): a caption checked with the
 * server's own schema, at least one photo or video, the upload's progress, and a toast for the
 * outcome. Success clears it and calls `onPosted`; a failure keeps what was typed and picked.
 * `field` names the files' multipart field.
 */
export function useMemoryPost(field: 'files' | 'media', onPosted: (posted: MemoryPosted) => void) {
  const [username] = useStoredUsername();
  const selection = useSelectedFiles();
  const [progress, setProgress] = useState<number | null>(null);
  const create = useCreateMemory();
  const form = useForm({
    mode: 'controlled',
    initialValues: { caption: '' },
    validate: (values) => ({
      ...checkCaption(values),
      ...(selection.files.length === 0 ? { files: NO_FILES } : {}),
    }),
  });

  const submit = form.onSubmit(({ caption }) => {
    if (!username) return;
    const files = selection.files;
    setProgress(0);
    create.mutate(
      { caption, username, files, field, onProgress: setProgress },
      {
        onSuccess: (result) => {
          // One toast: what was shared and, when some files were refused, which and why.
          const partly = result.refused.length > 0;
          notifications.show({
            color: partly ? 'yellow' : 'green',
            message: result.message,
            autoClose: partly ? false : TOAST_AUTO_CLOSE,
          });
          form.reset();
          selection.clear();
          setProgress(null);
          onPosted({ result, caption: caption.trim(), files });
        },
        onError: (error) => {
          setProgress(null);
          // The spec's "Error submitting memory: {the server's reason}", or its plain fallback.
          const reason = errorMessage(error, '');
          notifications.show({
            color: 'red',
            message: reason ? MEMORY_TEXTS.postFailed(reason) : MEMORY_TEXTS.postFailedFallback,
            autoClose: TOAST_AUTO_CLOSE,
          });
        },
      },
    );
  });

  return {
    form,
    /** The picked files; adding one clears the "Add at least one" message. */
    selection: {
      ...selection,
      add: (files: File[]) => {
        selection.add(files);
        form.clearFieldError('files');
      },
    },
    progress,
    posting: create.isPending,
    submit,
  };
}
