import {
  Alert,
  Button,
  Center,
  ColorInput,
  Loader,
  NumberInput,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import type { Settings } from '../../../shared/schemas/settings.ts';
import { useAdminSettings, useSaveSettings } from './api/admin-settings.ts';
import { isUnauthorized } from './api/errors.ts';
import { toastDone, toastFailed } from '../../lib/toast.ts';

/** The admin's settings: pre-moderation, the asking limit, the event's name and colour. */
export function AdminSettings({ token, onExpired }: { token: string; onExpired: () => void }) {
  const settings = useAdminSettings(token);
  const save = useSaveSettings(token);
  const form = useForm<Settings>({
    mode: 'controlled',
    initialValues: {
      moderateQuestions: false,
      moderateMemories: false,
      eventName: '',
      primaryColor: '#1971c2',
      wallIntervalSeconds: 8,
      questionsPerMinute: 5,
    },
  });
  const { setValues, resetDirty } = form;
  const loaded = settings.data;
  useEffect(() => {
    if (loaded) {
      setValues(loaded);
      resetDirty(loaded);
    }
  }, [loaded, setValues, resetDirty]);
  const expired = isUnauthorized(settings.error);
  useEffect(() => {
    if (expired) onExpired();
  }, [expired, onExpired]);

  if (!loaded) {
    return settings.isError && !expired ? (
      <Alert color="red">The settings could not load.</Alert>
    ) : (
      <Center p="xl">
        <Loader aria-label="Loading the settings" />
      </Center>
    );
  }
  const submit = form.onSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => toastDone('Settings saved.'),
      onError: (error) => {
        if (isUnauthorized(error)) onExpired();
        else toastFailed(error, 'The settings could not be saved.');
      },
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={520}>
        <Switch
          label="Moderate questions"
          description="New questions wait for your approval (or their speaker's) before anyone else sees them."
          {...form.getInputProps('moderateQuestions', { type: 'checkbox' })}
        />
        <Switch
          label="Moderate memories"
          description="New memories wait for your approval."
          {...form.getInputProps('moderateMemories', { type: 'checkbox' })}
        />
        <NumberInput
          label="Questions per minute"
          description="How many questions one attendee may ask a minute."
          min={1}
          max={600}
          allowDecimal={false}
          {...form.getInputProps('questionsPerMinute')}
        />
        <TextInput label="Event name" maxLength={60} {...form.getInputProps('eventName')} />
        <ColorInput
          label="Primary colour"
          format="hex"
          withEyeDropper={false}
          {...form.getInputProps('primaryColor')}
        />
        <NumberInput
          label="Wall: seconds per memory"
          min={3}
          max={600}
          allowDecimal={false}
          {...form.getInputProps('wallIntervalSeconds')}
        />
        <Button type="submit" loading={save.isPending} w="fit-content">
          Save settings
        </Button>
      </Stack>
    </form>
  );
}
