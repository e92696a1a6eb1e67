import { Alert, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import { ADMIN_TEXTS } from '../../../shared/constants.ts';
import { adminLoginRequestSchema } from '../../../shared/schemas/admin.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useAdminLogin } from './api/admin-login.ts';
import { LoadError } from './list-notices.tsx';

/** "Admin Login": Username, Password (both required), Login; errors from the server shown. */
export function AdminLoginForm({ notice }: { notice: string | null }) {
  const login = useAdminLogin();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '' },
    validate: schemaResolver(adminLoginRequestSchema, { sync: true }),
    validateInputOnBlur: false,
  });

  const submit = form.onSubmit((values) => {
    login.mutate(values, { onError: () => form.setFieldValue('password', '') });
  });

  return (
    <Paper
      component="section"
      withBorder
      shadow="md"
      radius="lg"
      p="xl"
      w="100%"
      maw={420}
      mx="auto"
    >
      <Stack gap="lg">
        <Stack gap={4} align="center">
          <IconLock size={36} stroke={1.5} aria-hidden />
          <Title order={1} fz={28} ta="center">
            {ADMIN_TEXTS.loginTitle}
          </Title>
          <Text c="dimmed" ta="center" fz="sm">
            {ADMIN_TEXTS.loginIntro}
          </Text>
        </Stack>
        {notice && !login.isError && (
          <Alert color="yellow" icon={<IconInfoCircle />} role="status">
            {notice}
          </Alert>
        )}
        {login.isError && (
          <LoadError>{errorMessage(login.error, ADMIN_TEXTS.loginFailed)}</LoadError>
        )}
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label="Username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              key={form.key('username')}
              {...form.getInputProps('username')}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            <Button type="submit" fullWidth size="lg" loading={login.isPending}>
              {ADMIN_TEXTS.loginButton}
            </Button>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
