import {
  Anchor,
  Button,
  Center,
  Group,
  Image,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useField } from '@mantine/form';
import { type SyntheticEvent, useEffect, useEffectEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { TEXTS } from '../../../shared/constants.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { AppFooter } from '../../components/app-footer.tsx';
import { ColorSchemeToggle } from '../../components/color-scheme-toggle.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { translate, useMessages } from '../../i18n/language.ts';
import { useDataKeptLine, useLogoUrl } from '../../lib/branding.ts';
import { useEventName } from '../../lib/event-name.ts';
import { ensureAttendeeToken, useAttendeeToken } from '../../lib/attendee-token.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { whenFirstInput } from '../../lib/when-first-input.ts';
import classes from './join-screen.module.css';

// The shared schema (zod, and the code every screen shares) is not needed to show the page: it
// loads at the first input, while the name is typed.
const loadSchemas = () => import('../../../shared/schemas/common.ts');

/**
 * The join form's check, the shared schema's: blank, or nothing visible, shows "Enter your
 * username!!" (in the language shown; the schema's own words are the server's, in English).
 * Else the username as the server keeps it: trimmed, without the characters that print nothing
 * (decision 194).
 */
async function checkUsername(typed: string): Promise<{ error: string } | { username: string }> {
  const parsed = (await loadSchemas()).joinFormSchema.shape.username.safeParse(typed);
  if (parsed.success) return { username: parsed.data };
  const message = parsed.error.issues[0]?.message;
  return {
    error:
      message === undefined || message === TEXTS.joinEmptyUsername
        ? translate('join.emptyUsername')
        : message,
  };
}

/** Landing (join): a username and "Join Now"; no password, as the spec says. */
export default function JoinScreen() {
  const navigate = useNavigate();
  const { t, rich } = useMessages();
  const eventName = useEventName();
  const logoUrl = useLogoUrl();
  const dataKept = useDataKeptLine();
  const [stored, setStored] = useStoredUsername();
  const [, setToken] = useAttendeeToken();
  const [params, setParams] = useSearchParams();
  // `/?ask=<speaker username>` (the presenter view's QR code): the ask form opens after joining.
  const ask = params.get('ask');
  // `/?next=<path>`: a screen that needs a joined attendee sent the visitor here; back after.
  const back = params.get('next');
  const safeBack = back && /^\/(?![/\\])/.test(back) ? back : null;
  const next = ask
    ? `${CLIENT_PATHS.home}?ask=${encodeURIComponent(ask)}`
    : (safeBack ?? CLIENT_PATHS.home);
  // One field: Mantine's single-field form hook, a fraction of `useForm` in the entry's weight.
  const field = useField({ mode: 'uncontrolled', initialValue: '' });

  // `/?username=<name>`: the browser sent the form itself, tapped before the page's code had
  // arrived (decision 174); the join it asked for goes on now.
  const sentEarly = params.get('username');

  const joinAs = async (typed: string) => {
    // Checked here rather than through `field.validate()`, which does not answer an async check.
    const checked = await checkUsername(typed);
    if ('error' in checked) {
      field.setError(checked.error);
      return;
    }
    field.setError(null);
    // The attendee token comes with the username; without an answer the app asks again later.
    try {
      await ensureAttendeeToken(checked.username, setToken);
    } catch (error) {
      // A name with a blocked word: said under the field, to choose another.
      field.setError(error instanceof Error ? error.message : t('join.emptyUsername'));
      return;
    }
    setStored(checked.username);
    void navigate(next, { replace: sentEarly !== null });
  };
  const joinSentEarly = useEffectEvent(() => {
    if (sentEarly === null || stored) return;
    // Taken once: the address goes back to the page's own, so a blank name refused here is not
    // sent again by a reload, and the page is the one the visitor tapped on.
    setParams(
      (current) => {
        const rest = new URLSearchParams(current);
        rest.delete('username');
        return rest;
      },
      { replace: true },
    );
    field.setValue(sentEarly);
    void joinAs(sentEarly);
  });

  // The join's proof of work, when this network needs one, is solved while the name is typed.
  const prepareJoin = useEffectEvent(() => {
    if (stored) return;
    void import('../../lib/attendee-join.ts').then((join) => join.prepareJoin());
  });

  useEffect(() => {
    joinSentEarly();
    void whenFirstInput().then(() => {
      void loadSchemas();
      prepareJoin();
    });
  }, []);

  if (stored) return <Navigate to={next} replace />;

  const join = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The input is read, not the hook's copy: a name typed into the server's page before its
    // code arrived is only in the input.
    const input = event.currentTarget.elements.namedItem('username');
    void joinAs(input instanceof HTMLInputElement ? input.value : field.getValue());
  };

  return (
    <main className={classes.page}>
      <Group justify="flex-end" p="sm">
        <ColorSchemeToggle />
      </Group>
      <Center px="md" className={classes.center}>
        <Paper component="section" withBorder shadow="md" radius="lg" p="xl" w="100%" maw={420}>
          <Stack gap="lg">
            <Stack gap={6} align="center">
              <Image src={logoUrl} alt="" w={56} h={56} fit="contain" />
              <Title order={1} ta="center" fz={28}>
                {rich('join.title', { name: <bdi>{eventName}</bdi> })}
              </Title>
              <Text c="dimmed" ta="center">
                {t('join.tagline')}
              </Text>
            </Stack>
            <form onSubmit={join} noValidate>
              <Stack gap="md">
                <TextInput
                  label={t('join.usernameLabel')}
                  name="username"
                  placeholder={t('join.usernamePlaceholder')}
                  dir="auto"
                  autoComplete="nickname"
                  autoCapitalize="none"
                  spellCheck={false}
                  maxLength={80}
                  key={field.key}
                  {...field.getInputProps()}
                />
                <Button type="submit" fullWidth size="lg">
                  {t('join.button')}
                </Button>
              </Stack>
            </form>
            <Text fz="sm" c="dimmed" ta="center">
              {dataKept}{' '}
              <Anchor component={Link} to={CLIENT_PATHS.privacy} fz="sm" underline="always">
                {t('join.privacyLink')}
              </Anchor>
            </Text>
            <LanguageSelect size="sm" maw={240} w="100%" mx="auto" />
          </Stack>
        </Paper>
      </Center>
      <AppFooter />
    </main>
  );
}
