import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertTriangle, IconLogin2 } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { QA_TEXTS, SPEAKER_USERNAME_MAX } from '../../../shared/qa-constants.ts';
import { CLIENT_PATHS, speakerDashboardPath } from '../../../shared/routes.ts';
import { speakerLoginFormSchema } from '../../../shared/schemas/speaker.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useLoginSpeaker } from './api/login-speaker.ts';

/** /SpeakerLogin: a username and Login; "Login successful!" leads to the dashboard. */
export default function SpeakerLoginScreen() {
  const navigate = useNavigate();
  const mutation = useLoginSpeaker();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { username: '' },
    validate: schemaResolver(speakerLoginFormSchema, { sync: true }),
  });

  const submit = form.onSubmit(({ username }) => {
    if (mutation.isPending) return;
    mutation.mutate(
      { username: username.trim() },
      {
        onSuccess: ({ message, speaker }) => {
          if (message === QA_TEXTS.loginSuccess)
            void navigate(speakerDashboardPath(speaker.username));
        },
      },
    );
  });

  return (
    <Center mih="calc(100dvh - 140px)" py="xl">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Title order={1} fz={26}>
              Speaker Login
            </Title>
            <Text c="dimmed" size="sm">
              Use the username you got when you added your bio.
            </Text>
            <TextInput
              label="Username"
              placeholder="e.g. ada-lovelace"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={SPEAKER_USERNAME_MAX}
              key={form.key('username')}
              {...form.getInputProps('username')}
            />
            {mutation.isError && (
              <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle />}>
                <Text c="var(--mantine-color-error)" size="sm" fw={600}>
                  {errorMessage(mutation.error, QA_TEXTS.loginFailed)}
                </Text>
              </Alert>
            )}
            <Button
              type="submit"
              fullWidth
              loading={mutation.isPending}
              leftSection={<IconLogin2 size={18} />}
            >
              {QA_TEXTS.login}
            </Button>
            <Text size="sm" ta="center">
              New speaker?{' '}
              <Anchor component={Link} to={CLIENT_PATHS.speakerForm} fw={700}>
                Add your bio
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
