import { Paper, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import type { useForm } from '@mantine/form';
import {
  BLOCKED_WORDS_LIMITS,
  type BlockedWordAction,
  type Settings,
} from '../../../shared/schemas/settings.ts';

/** The actions as the organiser reads them (decision 236). */
const ACTIONS: { value: BlockedWordAction; label: string; description: string }[] = [
  {
    value: 'hold',
    label: 'Hold for approval',
    description: 'Questions, captions and poll answers wait for you; names are refused.',
  },
  {
    value: 'block',
    label: 'Refuse',
    description: 'The attendee is asked to rephrase; nothing is kept.',
  },
  {
    value: 'mask',
    label: 'Star the word',
    description: 'Kept with the word as ****; names are refused.',
  },
];

/**
 * The blocked words: the list in use (the shipped one until the organiser edits it), one per
 * line, and what a text with one of them gets. Saved with the other settings.
 */
export function BlockedWordsFields({
  form,
}: {
  form: Pick<ReturnType<typeof useForm<Settings>>, 'values' | 'errors' | 'setFieldValue'>;
}) {
  const { words, action } = form.values.blockedWords;
  const count = words.filter((word) => word.trim() !== '').length;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <Title order={2} fz="lg">
          Blocked words
        </Title>
        <Textarea
          label="Words and phrases, one per line"
          description="Matched as whole words, whatever the case, accents, look-alike letters or spacing (b a d, b.a.d). A * at the start or end stands for the rest of a word: idiot* also blocks idiots."
          autosize
          minRows={6}
          maxRows={14}
          spellCheck={false}
          value={words.join('\n')}
          onChange={(event) =>
            form.setFieldValue('blockedWords.words', event.currentTarget.value.split('\n'))
          }
          error={form.errors['blockedWords.words'] ?? form.errors.blockedWords}
        />
        <Text fz="xs" c="dimmed">
          {count} of at most {BLOCKED_WORDS_LIMITS.words}. The list starts with slurs and strong
          swear words in the app’s languages; edit it as your event needs.
        </Text>
        <Radio.Group
          label="When a text has one"
          value={action}
          onChange={(value) => form.setFieldValue('blockedWords.action', value)}
        >
          <Stack gap="xs" mt="xs">
            {ACTIONS.map((choice) => (
              <Radio
                key={choice.value}
                value={choice.value}
                label={choice.label}
                description={choice.description}
              />
            ))}
          </Stack>
        </Radio.Group>
      </Stack>
    </Paper>
  );
}
