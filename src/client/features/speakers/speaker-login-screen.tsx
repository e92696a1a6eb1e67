import {
  Alert,
  Anchor,
  Button,
  Center,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertTriangle, IconLogin2 } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  QA_TEXTS,
  SPEAKER_SECRET_MAX,
  SPEAKER_USERNAME_MAX,
} from '../../../shared/qa-constants.ts';
import { CLIENT_PATHS, speakerDashboardPath } from '../../../shared/routes.ts';
import { speakerLoginFormSchema } from '../../../shared/schemas/speaker.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { localized } from '../../lib/validation-text.ts';
import { useMessages } from '../../i18n/language.ts';
import { useLoginSpeaker } from './api/login-speaker.ts';
import { useSpeakerSession } from './api/speaker-session.ts';

/**
 * /SpeakerLogin: a username and Login; "Login successful!" leads to the dashboard. With the
 * secret (typed, or from the sign-in link's `#username=…&secret=…`) the dashboard gets the
 * speaker's controls.
 */
export default function SpeakerLoginScreen() {
  const { t, rich } = useMessages();
  const navigate = useNavigate();
  const mutation = useLoginSpeaker();
  const session = useSpeakerSession();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { username: '', secret: '' },
    validate: localized(schemaResolver(speakerLoginFormSchema, { sync: true })),
  });

  const login = (username: string, secret: string) => {
    if (mutation.isPending) return;
    mutation.mutate(
      { username: username.trim(), ...(secret.trim() ? { secret: secret.trim() } : {}) },
      {
        onSuccess: ({ message, speaker, token }) => {
          if (token) session.save(speaker.username, token);
          if (message === QA_TEXTS.loginSuccess)
            void navigate(speakerDashboardPath(speaker.username));
        },
      },
    );
  };
  const submit = form.onSubmit(({ username, secret }) => login(username, secret));

  // The sign-in link: log in at once, and take the secret out of the address bar.
  const fromLink = useRef(false);
  useEffect(() => {
    if (fromLink.current) return;
    const params = new URLSearchParams(window.location.hash.slice(1));
    const username = params.get('username');
    const secret = params.get('secret');
    if (!username || !secret) return;
    fromLink.current = true;
    window.history.replaceState(null, '', window.location.pathname);
    form.setValues({ username, secret });
    login(username, secret);
  });

  return (
    <Center mih="calc(100dvh - 140px)" py="xl">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Title order={1} fz={26}>
              {t('speakers.loginTitle')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('speakers.loginIntro')}
            </Text>
            <TextInput
              label={t('speakers.usernameLabel')}
              placeholder={t('speakers.usernamePlaceholder')}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={SPEAKER_USERNAME_MAX}
              key={form.key('username')}
              {...form.getInputProps('username')}
            />
            <PasswordInput
              label={t('speakers.secretLabel')}
              description={t('speakers.secretDescription')}
              autoComplete="current-password"
              maxLength={SPEAKER_SECRET_MAX}
              key={form.key('secret')}
              {...form.getInputProps('secret')}
            />
            {mutation.isError && (
              <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle />}>
                <Text c="var(--mantine-color-error)" size="sm" fw={600}>
                  {errorMessage(mutation.error, t('speakers.loginFailed'))}
                </Text>
              </Alert>
            )}
            <Button
              type="submit"
              fullWidth
              loading={mutation.isPending}
              leftSection={<IconLogin2 size={18} />}
            >
              {t('speakers.loginButton')}
            </Button>
            <Text size="sm" ta="center">
              {rich('speakers.newSpeaker', {
                link: (chunks) => (
                  <Anchor component={Link} to={CLIENT_PATHS.speakerForm} fw={700}>
                    {chunks}
                  </Anchor>
                ),
              })}
            </Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
