import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Input,
  NumberInput,
  Select,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowDown, IconArrowUp, IconCheck, IconPlus, IconX } from '@tabler/icons-react';
import { useEffect } from 'react';
import { POLL_LIMITS, POLL_TYPES, type Poll, type PollType } from '../../../shared/schemas/poll.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { toastDone } from '../../components/toast.ts';
import { translate, useT } from '../../i18n/language.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useCreatePoll } from './api/create-poll.ts';
import { usePatchPoll } from './api/patch-poll.ts';
import {
  POLL_TYPE_LABELS,
  type PollValues,
  hasOptions,
  moveOption,
  newOptionId,
  pollErrors,
  pollPatchOf,
  pollRequestOf,
  pollValuesOf,
} from './poll-form.ts';

/** What the editor opens on: a new poll, or a draft to change. */
export type PollDraft = { poll: null } | { poll: Poll };

/**
 * Prepares a poll: its question, its kind (which cannot change once made), its options (2 to 20,
 * added, removed and moved), a rating's scale, a quiz's right answers. Made as a draft, which
 * stays editable until it is opened. Checked with the shared schema as the server checks it; a
 * refusal of the server shows under the question.
 */
export function PollEditor({
  token,
  sessionId,
  draft,
  onClose,
  onFailed,
}: {
  token: string;
  /** The session the poll is for; null: the whole event. */
  sessionId: string | null;
  draft: PollDraft | null;
  onClose: () => void;
  /** A refusal that is not about the fields (an expired sign-in, a lost connection). */
  onFailed: (error: unknown) => void;
}) {
  const t = useT();
  const create = useCreatePoll(token);
  const patch = usePatchPoll(token);
  const form = useForm<PollValues>({
    mode: 'controlled',
    initialValues: pollValuesOf(),
    // Read when the form is checked, so the errors are in the language shown then.
    validate: (values) => pollErrors(values, translate),
  });
  const { setValues, resetDirty, clearErrors } = form;
  useEffect(() => {
    if (!draft) return;
    const values = pollValuesOf(draft.poll ?? undefined);
    setValues(values);
    resetDirty(values);
    clearErrors();
  }, [draft, setValues, resetDirty, clearErrors]);

  const editing = draft?.poll ?? null;
  const refused = (error: unknown) => {
    if (error instanceof ApiError && (error.status === 400 || error.status === 409))
      form.setFieldError('title', error.message);
    else onFailed(error);
  };
  const submit = form.onSubmit((values) => {
    if (editing) {
      patch.mutate(
        { id: editing._id, patch: pollPatchOf(values) },
        {
          onSuccess: (poll) => {
            onClose();
            toastDone(translate('polls.saved', { title: poll.title }));
          },
          onError: refused,
        },
      );
      return;
    }
    create.mutate(pollRequestOf(values, sessionId), {
      onSuccess: (poll) => {
        onClose();
        toastDone(translate('polls.draftReady', { title: poll.title }));
      },
      onError: refused,
    });
  });

  const { options, type } = form.values;
  const setType = (value: string | null) => {
    if (value && (POLL_TYPES as readonly string[]).includes(value))
      form.setFieldValue('type', value as PollType);
  };
  const move = (from: number, to: number) =>
    form.setFieldValue('options', moveOption(options, from, to));
  const remove = (index: number) => {
    const gone = options[index];
    form.setFieldValue(
      'options',
      options.filter((_, at) => at !== index),
    );
    if (gone)
      form.setFieldValue(
        'correct',
        form.values.correct.filter((id) => id !== gone.id),
      );
  };
  const toggleCorrect = (id: string, checked: boolean) =>
    form.setFieldValue(
      'correct',
      checked ? [...form.values.correct, id] : form.values.correct.filter((item) => item !== id),
    );
  const busy = create.isPending || patch.isPending;

  return (
    <FormDialog
      opened={draft !== null}
      onClose={onClose}
      title={editing ? t('polls.editTitle') : t('polls.newPoll')}
      size="lg"
      onSubmit={submit}
      busy={busy}
      actions={{
        cancel: t('polls.cancel'),
        submit: editing ? t('polls.saveDraft') : t('polls.createDraft'),
        submitting: t('polls.saving'),
        icon: <IconCheck size={18} />,
      }}
    >
      <TextInput
        label={t('polls.titleLabel')}
        description={t('polls.titleDescription')}
        dir="auto"
        required
        data-autofocus
        maxLength={POLL_LIMITS.titleMax}
        {...form.getInputProps('title')}
      />
      <Select
        label={t('polls.typeLabel')}
        data={POLL_TYPES.map((value) => ({ value, label: t(POLL_TYPE_LABELS[value]) }))}
        value={type}
        onChange={setType}
        allowDeselect={false}
        disabled={editing !== null}
        description={editing ? t('polls.typeKept') : undefined}
        comboboxProps={{ withinPortal: true }}
      />
      {hasOptions(type) && (
        <Input.Wrapper
          label={t('polls.optionsLabel')}
          description={
            type === 'quiz'
              ? t('polls.optionsQuizDescription')
              : t('polls.optionsDescription', {
                  min: POLL_LIMITS.minOptions,
                  max: POLL_LIMITS.maxOptions,
                })
          }
          error={form.errors.options ?? (type === 'quiz' ? form.errors.correct : undefined)}
        >
          <Stack gap="xs" mt={6}>
            {options.map((option, index) => {
              const number = index + 1;
              return (
                <Group key={option.id} gap={6} wrap="nowrap" align="flex-start">
                  {type === 'quiz' && (
                    <Checkbox
                      mt={8}
                      aria-label={t('polls.optionIsRight', { number })}
                      checked={form.values.correct.includes(option.id)}
                      onChange={(event) => toggleCorrect(option.id, event.currentTarget.checked)}
                    />
                  )}
                  <TextInput
                    style={{ flex: 1, minWidth: 0 }}
                    aria-label={t('polls.optionNumber', { number })}
                    placeholder={t('polls.optionNumber', { number })}
                    dir="auto"
                    maxLength={POLL_LIMITS.optionTextMax}
                    {...form.getInputProps(`options.${index}.text`)}
                  />
                  <ActionIcon
                    variant="subtle"
                    size="lg"
                    aria-label={t('polls.moveOptionUp', { number })}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                  >
                    <IconArrowUp size={18} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    size="lg"
                    aria-label={t('polls.moveOptionDown', { number })}
                    disabled={index === options.length - 1}
                    onClick={() => move(index, index + 1)}
                  >
                    <IconArrowDown size={18} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={t('polls.removeOption', { number })}
                    disabled={options.length <= POLL_LIMITS.minOptions}
                    onClick={() => remove(index)}
                  >
                    <IconX size={18} />
                  </ActionIcon>
                </Group>
              );
            })}
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              disabled={options.length >= POLL_LIMITS.maxOptions}
              onClick={() =>
                form.setFieldValue('options', [...options, { id: newOptionId(options), text: '' }])
              }
              style={{ alignSelf: 'flex-start' }}
            >
              {t('polls.addOption')}
            </Button>
          </Stack>
        </Input.Wrapper>
      )}
      {type === 'rating' && (
        <NumberInput
          label={t('polls.highestRating')}
          description={t('polls.highestRatingDescription', {
            min: POLL_LIMITS.minRating,
            max: POLL_LIMITS.maxRating,
          })}
          min={POLL_LIMITS.minRating}
          max={POLL_LIMITS.maxRating}
          allowDecimal={false}
          clampBehavior="strict"
          {...form.getInputProps('maxRating')}
        />
      )}
      {!editing && (
        <Switch
          label={t('polls.resultsVisibleLabel')}
          description={t('polls.resultsVisibleDescription')}
          {...form.getInputProps('resultsVisible', { type: 'checkbox' })}
        />
      )}
    </FormDialog>
  );
}
