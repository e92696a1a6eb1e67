import { Alert, Anchor, NativeSelect, Text, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconSend } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { LIMITS, TOAST_AUTO_CLOSE } from '../../../shared/constants.ts';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { askQuestionFormSchema } from '../../../shared/schemas/question.ts';
import { ApiError, errorMessage, isRetryLater } from '../../lib/api-client.ts';
import { enqueue } from '../../lib/offline-queue.ts';
import { toastQueued } from '../../components/toast.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { useCreateQuestion } from './api/create-question.ts';
import { type SpeakerChoice, speakersSeen, useSpeakers } from '../speakers/api/get-speakers.ts';
import { FormDialog } from '../../components/form-dialog.tsx';

/** Said when a question is kept for later. */
export const QUEUED_QUESTION =
  'You are offline: your question is queued and will be sent when the connection returns.';

/** Said when a question is kept because the server asked to try again later (busy, down). */
export const QUEUED_QUESTION_BUSY =
  'The server is busy: your question is queued and will be sent by itself in a moment.';

export interface AskQuestionModalProps {
  opened: boolean;
  onClose: () => void;
  /** Called after a question was stored (the "Thank you!" modal opens). */
  onAsked: () => void;
  /** The speaker chosen already when the dialog opens (from the Q&A room). */
  speakerId?: string | undefined;
}

/**
 * "Ask a Question": a required question and a required speaker (the dropdown's first, disabled
 * option reads "Select a speaker"; the list is refetched every 3 s while open, and offline the
 * speakers last seen are offered). Success clears the form, closes it and opens "Thank you!";
 * failure keeps what was typed; offline, the question is queued.
 */
export function AskQuestionModal({ opened, onClose, onAsked, speakerId }: AskQuestionModalProps) {
  const [username] = useStoredUsername();
  const speakers = useSpeakers(opened);
  const mutation = useCreateQuestion();
  const form = useForm({
    mode: 'controlled',
    initialValues: { question: '', speakerId: '' },
    validate: schemaResolver(askQuestionFormSchema, { sync: true }),
  });
  const { setFieldValue } = form;

  useEffect(() => {
    if (opened && speakerId) setFieldValue('speakerId', speakerId);
  }, [opened, speakerId, setFieldValue]);

  const submitting = mutation.isPending;
  const client = useQueryClient();
  // Offline (or until the list answers), the speakers this phone saw last: the question is
  // queued to one of them and sent when the connection returns.
  const seen = useMemo(
    () => (opened && !speakers.data ? speakersSeen(client) : undefined),
    [opened, speakers.data, client],
  );
  const list: SpeakerChoice[] = speakers.data ?? seen ?? [];
  const loading = speakers.isPending && !seen;

  const submit = form.onSubmit((values) => {
    if (submitting || !username) return;
    const speaker = list.find((item) => item._id === values.speakerId);
    const request = {
      speakerId: values.speakerId,
      speakerName: speaker?.name,
      question: values.question,
      askerUsername: username,
    };
    // Offline, or the network failed on the way: it is queued at once and sent on reconnect,
    // never left spinning. So is one the server asked to send again later (busy, down a moment).
    const queue = (message = QUEUED_QUESTION) => {
      void import('./question-outbox.ts');
      void enqueue({
        kind: 'question',
        label: values.question.trim().slice(0, 80),
        files: [],
        payload: Object.fromEntries(
          Object.entries(request).filter((entry): entry is [string, string] => !!entry[1]),
        ),
      });
      toastQueued(message);
      form.reset();
      onClose();
    };
    if (!navigator.onLine) {
      queue();
      return;
    }
    mutation.mutate(request, {
      onSuccess: (question) => {
        notifications.show({
          color: 'green',
          message: QA_TEXTS.questionSuccess,
          autoClose: TOAST_AUTO_CLOSE,
        });
        // Pre-moderation: nobody but the admin and the speaker sees it yet.
        if (question.status === 'pending') {
          notifications.show({
            color: 'blue',
            message: QA_TEXTS.awaitingApproval,
            autoClose: TOAST_AUTO_CLOSE * 2,
          });
        }
        form.reset();
        onAsked();
        onClose();
      },
      onError: (error) => {
        // The connection went while it was sent: queued, as if asked offline. The server
        // busy or down a moment (503, 429…): queued too, sent when it says. Online, any other
        // failure keeps the form, to send again.
        if (error instanceof ApiError && error.status === 0 && !navigator.onLine) {
          queue();
          return;
        }
        if (isRetryLater(error)) {
          queue(QUEUED_QUESTION_BUSY);
          return;
        }
        notifications.show({
          color: 'red',
          title: QA_TEXTS.questionFailure,
          message: errorMessage(
            error,
            'Check your connection and try again; your question is still here.',
          ),
          autoClose: TOAST_AUTO_CLOSE,
        });
      },
    });
  });

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={QA_TEXTS.askTitle}
      size="lg"
      onSubmit={submit}
      busy={submitting}
      actions={{
        cancel: 'Close',
        submit: 'Submit Question',
        submitting: QA_TEXTS.submitting,
        icon: <IconSend size={18} />,
        disabled: !username,
      }}
    >
      <Text c="dimmed" size="sm">
        Ask the speaker anything about their talk. Your question goes straight to them, with your
        username.
      </Text>
      {!username && (
        <Alert color="yellow" variant="light">
          Join with a username first:{' '}
          <Anchor component={Link} to={CLIENT_PATHS.join}>
            go to the join page
          </Anchor>
          .
        </Alert>
      )}
      <Textarea
        label="Your question"
        placeholder={QA_TEXTS.askPlaceholder}
        required
        minRows={4}
        maxRows={10}
        maxLength={LIMITS.questionMax}
        description={`${form.values.question.length} / ${LIMITS.questionMax}`}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        {...form.getInputProps('question')}
      />
      <NativeSelect
        label="Speaker"
        size="md"
        required
        data={[
          { value: '', label: QA_TEXTS.selectSpeaker, disabled: true },
          ...list.map((speaker) => ({ value: speaker._id, label: speaker.name })),
        ]}
        description={
          loading
            ? 'Loading the speakers…'
            : list.length === 0
              ? 'No speakers have signed up yet.'
              : !speakers.data
                ? 'The speakers as this phone last saw them.'
                : undefined
        }
        {...form.getInputProps('speakerId')}
      />
    </FormDialog>
  );
}
