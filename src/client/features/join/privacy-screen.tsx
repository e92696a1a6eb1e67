import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { useAppConfig } from '../../lib/app-config.ts';
import { useDataKeptLine } from '../../lib/branding.ts';
import { useEventName } from '../../lib/event-name.ts';

/**
 * `/privacy`: the organiser's privacy notice (plain text, its line breaks kept), and what the app
 * keeps and until when. With no notice written, what the app keeps and whom to ask.
 */
export default function PrivacyScreen() {
  const config = useAppConfig();
  const eventName = useEventName();
  const kept = useDataKeptLine();
  const notice = config.data?.privacyNotice ?? '';
  return (
    <Paper component="section" withBorder radius="md" p="lg" maw={720} mx="auto" my="md">
      <Stack gap="md">
        <Title order={1} fz={24}>
          Privacy notice
        </Title>
        {config.isPending ? (
          <Text c="dimmed">Loading the privacy notice…</Text>
        ) : notice ? (
          <Text dir="auto" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {notice}
          </Text>
        ) : (
          <Text>
            {eventName} keeps the username you pick, the photos, videos and captions you share, the
            questions you ask and your votes, to show them to the other attendees and the speakers.
            Ask the organisers about anything that concerns your data.
          </Text>
        )}
        <Text fw={600}>{kept}</Text>
        <Anchor component={Link} to={CLIENT_PATHS.join} fz="sm">
          Back
        </Anchor>
      </Stack>
    </Paper>
  );
}
