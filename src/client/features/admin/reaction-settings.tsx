import { Chip, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import type { useForm } from '@mantine/form';
import { useRef } from 'react';
import { DEFAULT_REACTIONS, MAX_REACTIONS } from '../../../shared/schemas/reaction.ts';
import type { Settings } from '../../../shared/schemas/settings.ts';

/** The emoji offered to choose from: the defaults first, then other common ones. */
const PALETTE = [...DEFAULT_REACTIONS, '👍', '🔥', '💡', '🙌', '🤯', '😍', '👀', '💯', '🚀', '🙏'];

/**
 * Reactions (decision 237): whether attendees react during talks, and with which emoji (up to
 * eight, shown in the order of this palette). Off is an empty list; on again brings back the
 * last choice.
 */
export function ReactionFields({
  form,
}: {
  form: Pick<ReturnType<typeof useForm<Settings>>, 'values' | 'errors' | 'setFieldValue'>;
}) {
  const chosen = form.values.reactions;
  const lastChoice = useRef<string[]>(chosen.length > 0 ? chosen : DEFAULT_REACTIONS);
  // Emoji set through the API that the palette lacks are shown too.
  const offered = [...PALETTE, ...chosen.filter((emoji) => !PALETTE.includes(emoji))];
  const on = chosen.length > 0;
  const choose = (picked: string[]) => {
    if (picked.length > MAX_REACTIONS) return;
    const ordered = offered.filter((emoji) => picked.includes(emoji));
    if (ordered.length > 0) lastChoice.current = ordered;
    form.setFieldValue('reactions', ordered);
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <Title order={2} fz="lg">
          Reactions
        </Title>
        <Switch
          label="Reactions during talks"
          description="Attendees tap an emoji under the talk they follow; the projector and the overlay show the room’s taps."
          checked={on}
          onChange={(event) =>
            form.setFieldValue('reactions', event.currentTarget.checked ? lastChoice.current : [])
          }
        />
        {on && (
          <Stack gap={6}>
            <Text fw={500} fz="sm" id="reactions-label">
              Emoji offered ({chosen.length} of at most {MAX_REACTIONS})
            </Text>
            <Chip.Group multiple value={chosen} onChange={choose}>
              <Group gap={6} role="group" aria-labelledby="reactions-label">
                {offered.map((emoji) => (
                  <Chip
                    key={emoji}
                    value={emoji}
                    size="lg"
                    disabled={!chosen.includes(emoji) && chosen.length >= MAX_REACTIONS}
                  >
                    <span style={{ fontSize: 22 }}>{emoji}</span>
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </Stack>
        )}
        {form.errors.reactions && (
          <Text c="red" fz="sm">
            {form.errors.reactions}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
