import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { useMessages } from '../../i18n/language.ts';
import { useAppConfig } from '../../lib/app-config.ts';
import { useDataKeptLine } from '../../lib/branding.ts';
import { useEventName } from '../../lib/event-name.ts';

/**
 * `/privacy`: the organiser's privacy notice (plain text, its line breaks kept), and what the app
 * keeps and until when. With no notice written, what the app keeps and whom to ask.
 */
export default function PrivacyScreen() {
  const { t, rich } = useMessages();
  const config = useAppConfig();
  const eventName = useEventName();
  const kept = useDataKeptLine();
  const notice = config.data?.privacyNotice ?? '';
  return (
    <Paper component="section" withBorder radius="md" p="lg" maw={720} mx="auto" my="md">
      <Stack gap="md">
        <Title order={1} fz={24}>
          {t('privacy.title')}
        </Title>
        {config.isPending ? (
          <Text c="dimmed">{t('privacy.loading')}</Text>
        ) : notice ? (
          <Text dir="auto" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {notice}
          </Text>
        ) : (
          <Text>{rich('privacy.defaultNotice', { name: <bdi>{eventName}</bdi> })}</Text>
        )}
        <Text fw={600}>{kept}</Text>
        <Anchor component={Link} to={CLIENT_PATHS.join} fz="sm">
          {t('privacy.back')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
