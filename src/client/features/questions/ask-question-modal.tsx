import { Alert, Anchor, Checkbox, NativeSelect, Radio, Stack, Text, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconSend } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { LIMITS, TOAST_AUTO_CLOSE } from '../../../shared/constants.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { MessageId } from '../../../shared/i18n/messages.ts';
import type { Session } from '../../../shared/schemas/programme.ts';
import { askQuestionFormSchema } from '../../../shared/schemas/question.ts';
import { ApiError, errorMessage, isRetryLater } from '../../lib/api-client.ts';
import { enqueue } from '../../lib/offline-queue.ts';
import { toastQueued } from '../../components/toast.ts';
import { translate, useMessages } from '../../i18n/language.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { useNow } from '../../lib/use-now.ts';
import { useAppConfig } from '../../lib/app-config.ts';
import { useCreateQuestion } from './api/create-question.ts';
import { type SpeakerChoice, speakersSeen, useSpeakers } from '../speakers/api/get-speakers.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { scheduleQueryOptions } from '../programme/api/get-schedule.ts';
import { startTime, todaysSessions } from '../programme/api/sessions-now.ts';

/** The dialog's pick of a session (a speaker's is their id): `session:<id>`. */
const SESSION_PICK = 'session:';
const sessionPick = (id: string) => `${SESSION_PICK}${id}`;
/** Asking a panel as a whole, in the choice between the panel and one of its speakers. */
const WHOLE_PANEL = '';

/** Whom the dialog's picks ask: a speaker, or a session (its panel, or one of its speakers). */
function askedOf(
  pick: string,
  panellist: string,
  sessions: readonly Session[],
): { speakerId?: string; sessionId?: string } {
  if (!pick.startsWith(SESSION_PICK)) return { speakerId: pick };
  const sessionId = pick.slice(SESSION_PICK.length);
  const session = sessions.find((item) => item._id === sessionId);
  // A talk with one speaker asks that speaker; a panel, the choice made.
  const speakerId =
    session?.speakerIds.length === 1 ? session.speakerIds[0] : panellist || undefined;
  return { sessionId, ...(speakerId && { speakerId }) };
}

/**
 * Said when a question is kept for later: offline, or because the server asked to try again
 * later (busy, down).
 */
const QUEUED_QUESTION = 'qa.queuedOffline' satisfies MessageId;
const QUEUED_QUESTION_BUSY = 'qa.queuedBusy' satisfies MessageId;

export interface AskQuestionModalProps {
  opened: boolean;
  onClose: () => void;
  /** Called after a question was stored (the "Thank you!" modal opens). */
  onAsked: () => void;
  /** The speaker chosen already when the dialog opens (from the Q&A room). */
  speakerId?: string | undefined;
  /** The session chosen already when the dialog opens (a talk's page, the Q&A room). */
  sessionId?: string | undefined;
}

/**
 * "Ask a Question": a required question and whom it asks (the dropdown's first, disabled option
 * reads "Select a speaker"): the talks on now first, then the rest of today's, then the
 * speakers (refetched every 3 s while open; offline, the speakers last seen are offered). A
 * panel is asked as a whole or one of its speakers is (decision 223). Success clears the form,
 * closes it and opens "Thank you!"; failure keeps what was typed; offline, the question is
 * queued.
 */
export function AskQuestionModal({
  opened,
  onClose,
  onAsked,
  speakerId,
  sessionId,
}: AskQuestionModalProps) {
  const { t, rich } = useMessages();
  const [username] = useStoredUsername();
  const speakers = useSpeakers(opened);
  const schedule = useQuery({ ...scheduleQueryOptions(), enabled: opened });
  const { onNow, later } = todaysSessions(schedule.data, useNow());
  // Whom of a panel the question asks, for the pick it was chosen in: another pick starts from
  // the whole panel again (a speaker of one panel is not the next one's).
  const [panelChoice, setPanelChoice] = useState({ pick: '', speakerId: WHOLE_PANEL });
  const mutation = useCreateQuestion();
  // Offered only while the organiser allows it (decision 233).
  const allowAnonymous = useAppConfig().data?.allowAnonymousQuestions === true;
  const form = useForm({
    mode: 'controlled',
    initialValues: { question: '', speakerId: '', anonymous: false },
    validate: schemaResolver(askQuestionFormSchema, { sync: true }),
  });
  const { setFieldValue } = form;

  useEffect(() => {
    if (opened && sessionId) setFieldValue('speakerId', sessionPick(sessionId));
    else if (opened && speakerId) setFieldValue('speakerId', speakerId);
  }, [opened, speakerId, sessionId, setFieldValue]);

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

  // A talk chosen before opening (its page) is offered even when it is not today's.
  const preset =
    sessionId && ![...onNow, ...later].some((item) => item._id === sessionId)
      ? schedule.data?.sessions.find((item) => item._id === sessionId)
      : undefined;
  const offered = [...(preset ? [preset] : []), ...onNow, ...later];
  const pick = form.values.speakerId;
  const panellist = panelChoice.pick === pick ? panelChoice.speakerId : WHOLE_PANEL;
  const pickedSession = pick.startsWith(SESSION_PICK)
    ? (offered.find((item) => sessionPick(item._id) === pick) ?? null)
    : null;
  const panel = pickedSession && pickedSession.speakerIds.length > 1 ? pickedSession : null;
  const nameOf = (id: string) => list.find((item) => item._id === id)?.name;

  const submit = form.onSubmit((values) => {
    if (submitting || !username) return;
    const asked = askedOf(values.speakerId, panel ? panellist : WHOLE_PANEL, offered);
    const request = {
      ...asked,
      speakerName: asked.speakerId && nameOf(asked.speakerId),
      question: values.question,
      askerUsername: username,
      ...(allowAnonymous && values.anonymous ? { anonymous: true } : {}),
    };
    // Offline, or the network failed on the way: it is queued at once and sent on reconnect,
    // never left spinning. So is one the server asked to send again later (busy, down a moment).
    const queue = (message: MessageId = QUEUED_QUESTION) => {
      void import('./question-outbox.ts');
      void enqueue({
        kind: 'question',
        label: values.question.trim().slice(0, 80),
        files: [],
        payload: Object.fromEntries(
          Object.entries(request).filter((entry): entry is [string, string] => !!entry[1]),
        ),
      });
      toastQueued(translate(message));
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
          message: translate('qa.questionSuccess'),
          autoClose: TOAST_AUTO_CLOSE,
        });
        // Pre-moderation: nobody but the admin and the speaker sees it yet.
        if (question.status === 'pending') {
          notifications.show({
            color: 'blue',
            message: translate('qa.awaitingApproval'),
            autoClose: TOAST_AUTO_CLOSE * 2,
          });
        }
        form.reset();
        setPanelChoice({ pick: '', speakerId: WHOLE_PANEL });
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
        // A word the organisers block: said under the question, which stays to be rephrased.
        if (error instanceof ApiError && error.code === 'BLOCKED_WORDS') {
          form.setFieldError('question', error.message);
          return;
        }
        notifications.show({
          color: 'red',
          title: translate('qa.questionFailure'),
          message: errorMessage(error, translate('qa.questionFailureHint')),
          autoClose: TOAST_AUTO_CLOSE,
        });
      },
    });
  });

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t('qa.askTitle')}
      size="lg"
      onSubmit={submit}
      busy={submitting}
      actions={{
        cancel: t('qa.askClose'),
        submit: t('qa.askSubmit'),
        submitting: t('qa.submitting'),
        icon: <IconSend size={18} className="confab-flip-rtl" />,
        disabled: !username,
      }}
    >
      <Text c="dimmed" size="sm">
        {t('qa.askIntro', {
          mode: allowAnonymous && form.values.anonymous ? 'anonymous' : 'named',
        })}
      </Text>
      {!username && (
        <Alert color="yellow" variant="light">
          {rich('qa.joinFirst', {
            link: (chunks) => (
              <Anchor component={Link} to={CLIENT_PATHS.join}>
                {chunks}
              </Anchor>
            ),
          })}
        </Alert>
      )}
      <Textarea
        label={t('qa.yourQuestion')}
        placeholder={t('qa.askPlaceholder')}
        required
        minRows={4}
        maxRows={10}
        maxLength={LIMITS.questionMax}
        description={t('qa.characterCount', {
          count: form.values.question.length,
          max: LIMITS.questionMax,
        })}
        dir="auto"
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        {...form.getInputProps('question')}
      />
      <NativeSelect
        label={t('qa.speakerLabel')}
        size="md"
        required
        data={[
          { value: '', label: t('qa.selectSpeaker'), disabled: true },
          ...(preset
            ? [
                {
                  group: t('qa.groupThisTalk'),
                  items: [{ value: sessionPick(preset._id), label: preset.title }],
                },
              ]
            : []),
          ...(onNow.length > 0
            ? [
                {
                  group: t('qa.onNow'),
                  items: onNow.map((session) => ({
                    value: sessionPick(session._id),
                    label: session.title,
                  })),
                },
              ]
            : []),
          ...(later.length > 0
            ? [
                {
                  group: t('qa.groupToday'),
                  items: later.map((session) => ({
                    value: sessionPick(session._id),
                    label: t('qa.sessionOption', {
                      time: startTime(session),
                      title: session.title,
                    }),
                  })),
                },
              ]
            : []),
          ...(offered.length > 0
            ? [
                {
                  group: t('qa.speakers'),
                  items: list.map((speaker) => ({ value: speaker._id, label: speaker.name })),
                },
              ]
            : list.map((speaker) => ({ value: speaker._id, label: speaker.name }))),
        ]}
        description={
          loading
            ? t('qa.loadingSpeakersHint')
            : offered.length > 0 && list.length > 0
              ? t('qa.speakersTalksFirst')
              : list.length === 0
                ? t('qa.noSpeakersYet')
                : !speakers.data
                  ? t('qa.speakersLastSeen')
                  : undefined
        }
        {...form.getInputProps('speakerId')}
      />
      {panel && (
        <Radio.Group
          label={t('qa.askWhom')}
          value={panellist}
          onChange={(speakerId) => setPanelChoice({ pick, speakerId })}
        >
          <Stack gap="xs" mt={6}>
            <Radio value={WHOLE_PANEL} label={t('qa.panelWhole')} />
            {panel.speakerIds.map((id) => (
              <Radio
                key={id}
                value={id}
                label={nameOf(id) === undefined ? t('qa.panelSpeaker') : <bdi>{nameOf(id)}</bdi>}
              />
            ))}
          </Stack>
        </Radio.Group>
      )}
      {allowAnonymous && (
        <Checkbox
          label={t('qa.askAnonymously')}
          description={t('qa.askAnonymouslyHint')}
          {...form.getInputProps('anonymous', { type: 'checkbox' })}
        />
      )}
    </FormDialog>
  );
}
