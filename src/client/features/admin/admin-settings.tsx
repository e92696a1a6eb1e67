import {
  Alert,
  Button,
  Center,
  ColorInput,
  FileButton,
  Group,
  Image,
  Loader,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useEffect } from 'react';
import { DEFAULT_PRIMARY_COLOR } from '../../../shared/brand-palette.ts';
import { DEFAULT_REACTIONS } from '../../../shared/schemas/reaction.ts';
import { ACCEPTED_IMAGE_TYPES } from '../../../shared/constants.ts';
import { formatDay, lastDayKept } from '../../../shared/retention.ts';
import {
  PRIVACY_NOTICE_MAX,
  DEFAULT_LANGUAGE,
  DEFAULT_LANGUAGES,
  type Settings,
  settingsSchema,
} from '../../../shared/schemas/settings.ts';
import { BlockedWordsFields } from './blocked-words-fields.tsx';
import { PurgeEventData } from './purge-event-data.tsx';
import { ReactionFields } from './reaction-settings.tsx';
import { LanguageFields } from './language-settings.tsx';
import { useAdminSettings, useSaveLogo, useSaveSettings } from './api/admin-settings.ts';
import { isUnauthorized } from './api/errors.ts';
import { useSessionExpiry } from './use-session-expiry.ts';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { defaultLogoUrl } from '../../../shared/logo.ts';

/** The check of one field, the shared schema's: its message, or null. */
const fieldCheck =
  <K extends keyof Settings>(key: K) =>
  (value: Settings[K]) => {
    const parsed = settingsSchema.shape[key].safeParse(value);
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid value');
  };

/**
 * The organiser's settings: the event's name, colour and logo (every screen shows them at once),
 * moderation and the blocked words, the wall's pace and the asking limit.
 */
export function AdminSettings({ token, onExpired }: { token: string; onExpired: () => void }) {
  const settings = useAdminSettings(token);
  const save = useSaveSettings(token);
  const logo = useSaveLogo(token);
  const form = useForm<Settings>({
    mode: 'controlled',
    initialValues: {
      moderateQuestions: false,
      moderateMemories: false,
      allowAnonymousQuestions: false,
      eventName: '',
      primaryColor: DEFAULT_PRIMARY_COLOR,
      wallIntervalSeconds: 8,
      questionsPerMinute: 5,
      timezone: 'UTC',
      reportsToHide: 3,
      retentionDays: null,
      retentionUntil: null,
      privacyNotice: '',
      reactions: DEFAULT_REACTIONS,
      blockedWords: { words: [], action: 'hold' },
      languages: DEFAULT_LANGUAGES,
      defaultLanguage: DEFAULT_LANGUAGE,
    },
    validate: {
      reactions: fieldCheck('reactions'),
      blockedWords: fieldCheck('blockedWords'),
      retentionDays: fieldCheck('retentionDays'),
      retentionUntil: fieldCheck('retentionUntil'),
      privacyNotice: fieldCheck('privacyNotice'),
      eventName: fieldCheck('eventName'),
      primaryColor: fieldCheck('primaryColor'),
      wallIntervalSeconds: fieldCheck('wallIntervalSeconds'),
      questionsPerMinute: fieldCheck('questionsPerMinute'),
      reportsToHide: fieldCheck('reportsToHide'),
    },
  });
  const { setValues, resetDirty } = form;
  const loaded = settings.data;
  useEffect(() => {
    if (loaded) {
      const { logoUrl: _logo, retentionEndsAt: _end, ...values } = loaded;
      setValues(values);
      resetDirty(values);
    }
  }, [loaded, setValues, resetDirty]);
  const expired = useSessionExpiry(settings.error, onExpired);

  if (!loaded) {
    return settings.isError && !expired ? (
      <Alert color="red">The settings could not load.</Alert>
    ) : (
      <Center p="xl">
        <Loader aria-label="Loading the settings" />
      </Center>
    );
  }
  const failed = (fallback: string) => (error: Error) => {
    if (isUnauthorized(error)) onExpired();
    else toastFailed(error, fallback);
  };
  const submit = form.onSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => {
        resetDirty(values);
        toastDone('Settings saved. Every open screen shows them now.');
      },
      onError: failed('The settings could not be saved.'),
    }),
  );
  /** The input of a whole-number setting, within the bounds the shared schema sets. */
  const wholeNumber = (key: 'wallIntervalSeconds' | 'questionsPerMinute' | 'reportsToHide') => ({
    min: settingsSchema.shape[key].minValue ?? undefined,
    max: settingsSchema.shape[key].maxValue ?? undefined,
    allowDecimal: false,
    ...form.getInputProps(key),
  });
  const changeLogo = (file: File | null) => {
    if (file === null && !loaded.logoUrl) return;
    logo.mutate(file, {
      onSuccess: () => toastDone(file ? 'Logo saved.' : 'Logo removed.'),
      onError: failed('The logo could not be saved.'),
    });
  };

  return (
    <>
      <form onSubmit={submit} noValidate>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" maw={1000}>
          <Paper withBorder p="md" radius="md">
            <Stack gap="md">
              <Title order={2} fz="lg">
                The event
              </Title>
              <TextInput
                label="Event name"
                description="Shown on every screen, the wall, link previews and the page title."
                maxLength={settingsSchema.shape.eventName.maxLength ?? undefined}
                required
                {...form.getInputProps('eventName')}
              />
              <ColorInput
                label="Primary colour"
                description="Buttons, links and highlights. Shades are adjusted so text stays readable."
                format="hex"
                withEyeDropper={false}
                swatches={[
                  '#4c6ef5',
                  '#1971c2',
                  '#0c8599',
                  '#2f9e44',
                  '#e8590c',
                  '#c2255c',
                  '#7048e8',
                ]}
                {...form.getInputProps('primaryColor')}
              />
              <Stack gap={6}>
                <Text fw={500} fz="sm">
                  Logo
                </Text>
                <Group gap="sm" wrap="wrap">
                  <Image
                    src={loaded.logoUrl ?? defaultLogoUrl(loaded.primaryColor)}
                    alt={loaded.logoUrl ? 'The event’s logo' : 'The app’s own logo'}
                    w={48}
                    h={48}
                    fit="contain"
                  />
                  <FileButton onChange={changeLogo} accept={ACCEPTED_IMAGE_TYPES.join(',')}>
                    {(props) => (
                      <Button
                        {...props}
                        variant="default"
                        leftSection={<IconPhotoUp size={18} />}
                        loading={logo.isPending && logo.variables !== null}
                      >
                        {loaded.logoUrl ? 'Change logo' : 'Upload logo'}
                      </Button>
                    )}
                  </FileButton>
                  {loaded.logoUrl && (
                    <Button
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={18} />}
                      loading={logo.isPending && logo.variables === null}
                      onClick={() => changeLogo(null)}
                    >
                      Remove logo
                    </Button>
                  )}
                </Group>
                <Text c="dimmed" fz="xs">
                  A square image works best (JPEG, PNG, WebP, GIF or HEIC, up to 5 MB); it is saved
                  at once.
                </Text>
              </Stack>
            </Stack>
          </Paper>
          <Paper withBorder p="md" radius="md">
            <Stack gap="md">
              <Title order={2} fz="lg">
                Moderation and pace
              </Title>
              <Switch
                label="Moderate questions"
                description="New questions wait for your approval (or their speaker's) before anyone else sees them."
                {...form.getInputProps('moderateQuestions', { type: 'checkbox' })}
              />
              <Switch
                label="Allow anonymous questions"
                description="Attendees may ask without their username shown. Only you see who asked; a question asked anonymously stays anonymous if you turn this off."
                {...form.getInputProps('allowAnonymousQuestions', { type: 'checkbox' })}
              />
              <Switch
                label="Moderate memories"
                description="New memories wait for your approval."
                {...form.getInputProps('moderateMemories', { type: 'checkbox' })}
              />
              <NumberInput
                label="Questions per minute"
                description="How many questions one attendee may ask a minute."
                {...wholeNumber('questionsPerMinute')}
              />
              <NumberInput
                label="Wall: seconds per memory"
                description="How long each memory stays on the projected wall."
                {...wholeNumber('wallIntervalSeconds')}
              />
              <NumberInput
                label="Reports that hide a memory"
                description="A memory reported by this many people is hidden until you keep or remove it; 0: never hidden by reports."
                {...wholeNumber('reportsToHide')}
              />
            </Stack>
          </Paper>
          <PrivacyFields form={form} retentionEndsAt={loaded.retentionEndsAt} />
          <BlockedWordsFields form={form} />
          <ReactionFields form={form} />
          <LanguageFields form={form} />
        </SimpleGrid>
        <Group mt="md">
          <Button type="submit" loading={save.isPending}>
            Save settings
          </Button>
          {form.isDirty() && (
            <Text c="dimmed" fz="sm">
              Unsaved changes
            </Text>
          )}
        </Group>
      </form>
      {/* Outside the settings' form: the dialog's own form must not submit the settings. */}
      <PurgeEventData token={token} eventName={loaded.eventName} onExpired={onExpired} />
    </>
  );
}

/**
 * Privacy: the notice the join page links, and how long attendees' data is kept after the event
 * (decision 217), with the date it will go as the server works it out from the saved settings.
 */
function PrivacyFields({
  form,
  retentionEndsAt,
}: {
  form: Pick<
    ReturnType<typeof useForm<Settings>>,
    'values' | 'errors' | 'setFieldValue' | 'getInputProps'
  >;
  retentionEndsAt: string | null;
}) {
  const lastDay = lastDayKept(retentionEndsAt === null ? null : new Date(retentionEndsAt));
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <Title order={2} fz="lg">
          Privacy
        </Title>
        <Textarea
          label="Privacy notice"
          description="Plain text, linked from the join page: who you are, what you keep, why, and whom to ask."
          autosize
          minRows={4}
          maxRows={12}
          maxLength={PRIVACY_NOTICE_MAX}
          {...form.getInputProps('privacyNotice')}
        />
        <NumberInput
          label="Keep attendee data for (days after the programme ends)"
          description="Empty: keep it until you purge it."
          min={1}
          max={3650}
          allowDecimal={false}
          value={form.values.retentionDays ?? ''}
          onChange={(value) =>
            form.setFieldValue('retentionDays', typeof value === 'number' ? value : null)
          }
          error={form.errors.retentionDays}
        />
        <TextInput
          type="date"
          label="Or keep it until (last day)"
          description="A date wins over the days."
          value={form.values.retentionUntil ?? ''}
          onChange={(event) =>
            form.setFieldValue('retentionUntil', event.currentTarget.value || null)
          }
          error={form.errors.retentionUntil}
        />
        <Text fz="sm" c="dimmed">
          {lastDay
            ? `Saved: attendee data is removed after ${formatDay(lastDay)}.`
            : form.values.retentionDays !== null && !form.values.retentionUntil
              ? 'The days count from the programme’s last session: with no programme, nothing is removed by itself.'
              : 'Saved: attendee data is kept until you purge it.'}
        </Text>
      </Stack>
    </Paper>
  );
}
