import { Button, Group, Stack, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconMessageReply, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { LIMITS } from '../../shared/constants.ts';
import { type Question, answerFormSchema } from '../../shared/schemas/question.ts';
import { translate, useT } from '../i18n/language.ts';
import { ActionButton } from './action-button.tsx';
import { toastDone, toastFailed, toastUndoable } from './toast.ts';

/**
 * The written answer's controls (decision 234), for the question's speaker on their dashboard
 * and for the admin in the console: write it, edit it, remove it (with Undo). `save` sends the
 * answer (null removes it) and puts the changed question in the screen's lists.
 */
export function AnswerEditor({
  question,
  save: send,
}: {
  question: Pick<Question, 'answer'>;
  save: (answer: string | null) => Promise<unknown>;
}) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { answer: question.answer ?? '' },
    validate: schemaResolver(answerFormSchema, { sync: true }),
  });

  const save = (answer: string | null, done: () => void) => {
    setBusy(true);
    send(answer)
      .then(done, (error: unknown) => toastFailed(error, translate('qa.answerSaveFailed')))
      .finally(() => setBusy(false));
  };

  if (!editing) {
    const previous = question.answer;
    return (
      <Group gap="xs" mt="xs">
        <ActionButton
          icon={previous === null ? IconMessageReply : IconPencil}
          onClick={() => {
            form.setValues({ answer: previous ?? '' });
            form.resetDirty();
            setEditing(true);
          }}
        >
          {previous === null ? t('qa.answerWrite') : t('qa.answerEdit')}
        </ActionButton>
        {previous !== null && (
          <ActionButton
            icon={IconTrash}
            color="red"
            disabled={busy}
            onClick={() =>
              save(null, () =>
                toastUndoable(translate('qa.answerRemoved'), () => save(previous, () => undefined)),
              )
            }
          >
            {t('qa.answerRemove')}
          </ActionButton>
        )}
      </Group>
    );
  }

  return (
    <form
      onSubmit={form.onSubmit((values) =>
        save(values.answer, () => {
          toastDone(translate('qa.answerSaved'));
          setEditing(false);
        }),
      )}
    >
      <Stack gap="xs" mt="xs">
        <Textarea
          label={t('qa.answerLabel')}
          placeholder={t('qa.answerPlaceholder')}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={LIMITS.answerMax}
          description={t('qa.characterCount', {
            count: form.values.answer.length,
            max: LIMITS.answerMax,
          })}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          data-autofocus
          dir="auto"
          {...form.getInputProps('answer')}
        />
        <Group gap="xs">
          <Button type="submit" size="compact-sm" loading={busy}>
            {t('qa.answerSave')}
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setEditing(false)}>
            {t('qa.answerCancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
