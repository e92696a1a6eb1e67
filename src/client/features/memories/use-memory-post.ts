import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { TOAST_AUTO_CLOSE } from '../../../shared/constants.ts';
import { type MemoryPostResponse, memoryPostFieldsSchema } from '../../../shared/schemas/memory.ts';
import { translate } from '../../i18n/language.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { enqueue, useQueue } from '../../lib/offline-queue.ts';
import { toastQueued } from '../../components/toast.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { newPostId } from './api/create-memory.ts';
import './memory-outbox.ts';
import { postedText } from './posted-message.ts';
import { useSelectedFiles } from './use-selected-files.ts';

/** The caption as the server checks it. */
const checkCaption = schemaResolver(memoryPostFieldsSchema.pick({ caption: true }), { sync: true });

/** What was posted: the answer, and the caption and files it was made from. */
export interface MemoryPosted {
  result: MemoryPostResponse;
  caption: string;
  files: File[];
}

/**
 * A form that posts a memory (the memory form and the share dialog): a caption checked with the
 * server's own schema, at least one photo or video, the upload's progress, and a toast for the
 * outcome. Every post goes through the offline queue (kept in IndexedDB, sent resumably), so a
 * dropped connection pauses it and a closed page resumes it. Online, the form follows the post
 * to its end: success clears it and calls `onPosted`; a failure keeps what was typed and picked.
 * Offline, the post is queued at once ("waiting for connection") and the form is cleared.
 * `field` names the files' multipart field.
 */
export function useMemoryPost(
  _field: 'files' | 'media',
  onPosted: (posted: MemoryPosted) => void,
  onQueued?: () => void,
) {
  const [username] = useStoredUsername();
  const selection = useSelectedFiles();
  const [sending, setSending] = useState<string | null>(null);
  const queue = useQueue('memory');
  const entry = sending ? queue.find((item) => item.id === sending) : undefined;
  const form = useForm({
    mode: 'controlled',
    initialValues: { caption: '' },
    validate: (values) => ({
      ...checkCaption(values),
      ...(selection.files.length === 0 ? { files: translate('memories.noFiles') } : {}),
    }),
  });

  const submit = form.onSubmit(async ({ caption }) => {
    if (!username || sending) return;
    const files = selection.files;
    const { id, sent } = await enqueue({
      kind: 'memory',
      label: caption.trim(),
      files,
      payload: { caption, username, postId: newPostId() },
    });
    if (!navigator.onLine) {
      toastQueued(translate('memories.queued'));
      form.reset();
      selection.clear();
      onQueued?.();
      return;
    }
    setSending(id);
    sent.then(
      (answer) => {
        const result = answer as MemoryPostResponse;
        setSending(null);
        // One toast: what was shared and, when some files were refused, which and why, in the
        // shown language (the server's own `message` is English).
        const partly = result.refused.length > 0;
        notifications.show({
          color: partly ? 'yellow' : 'green',
          message: postedText(result),
          autoClose: partly ? false : TOAST_AUTO_CLOSE,
        });
        form.reset();
        selection.clear();
        onPosted({ result, caption: caption.trim(), files });
      },
      (error: unknown) => {
        setSending(null);
        if (error instanceof DOMException && error.name === 'AbortError') return;
        // The spec's "Error submitting memory: {the server's reason}", or its plain fallback.
        const reason = errorMessage(error, '');
        notifications.show({
          color: 'red',
          message: reason
            ? translate('memories.postFailed', { reason })
            : translate('memories.postFailedFallback'),
          autoClose: TOAST_AUTO_CLOSE,
        });
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
    progress: sending ? (entry?.progress ?? 0) : null,
    /** Sending, but the connection is gone: it goes on when it comes back. */
    waiting:
      sending !== null &&
      entry !== undefined &&
      entry.retryAt === undefined &&
      (entry.waiting === true || !entry.sending),
    /** The server asked to try again later (busy, or down a moment): it will, by itself. */
    retrying: sending !== null && entry?.retryAt !== undefined,
    posting: sending !== null,
    submit,
  };
}
