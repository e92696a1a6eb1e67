import { Checkbox, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import type { useForm } from '@mantine/form';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../../../shared/i18n/languages.ts';
import type { Settings } from '../../../shared/schemas/settings.ts';

/**
 * Languages (decision 246): which the attendees may choose among, and the event's default,
 * which big screens use and attendees whose browser asks for none offered. The console itself
 * stays in English.
 */
export function LanguageFields({
  form,
}: {
  form: Pick<ReturnType<typeof useForm<Settings>>, 'values' | 'errors' | 'setFieldValue'>;
}) {
  const { languages, defaultLanguage } = form.values;
  const choose = (picked: string[]) => {
    // In the order the app lists them; the default is always among them.
    const ordered = LANGUAGES.filter((code) => picked.includes(code) || code === defaultLanguage);
    form.setFieldValue('languages', ordered);
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <Title order={2} fz="lg">
          Languages
        </Title>
        <NativeSelect
          label="Default language"
          description="Projectors, the wall and the overlay show it (a screen's address can ask for another with ?lang=fr), and so does the app for attendees whose browser asks for none of those offered."
          data={languages.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
          value={defaultLanguage}
          onChange={(event) =>
            form.setFieldValue('defaultLanguage', event.currentTarget.value as Language)
          }
          error={form.errors.defaultLanguage}
        />
        <Checkbox.Group
          label="Offered to attendees"
          description="Each attendee picks one on the join page or in the header; their browser's language is the first guess."
          value={languages}
          onChange={choose}
          error={form.errors.languages}
        >
          <Group gap="md" mt={6}>
            {LANGUAGES.map((code) => (
              <Checkbox
                key={code}
                value={code}
                label={<span lang={code}>{LANGUAGE_NAMES[code]}</span>}
                disabled={code === defaultLanguage}
              />
            ))}
          </Group>
        </Checkbox.Group>
        <Text c="dimmed" fz="xs">
          The default language cannot be turned off: choose another default first.
        </Text>
      </Stack>
    </Paper>
  );
}
