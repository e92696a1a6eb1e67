import { Anchor, Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMicrophone2, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { useEventName } from '../../lib/event-name.ts';
import { JoinSpeakerModal } from './join-speaker-modal.tsx';
import { UploadedModal } from './uploaded-modal.tsx';

/** /Speakerform: the speaker sign-up landing. */
export default function SpeakerFormScreen() {
  const eventName = useEventName();
  const [joining, join] = useDisclosure(false);
  const [joined, setJoined] = useState<{ speaker: Speaker; secret: string } | null>(null);
  return (
    <Center mih="calc(100dvh - 140px)" py="xl">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={480}>
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={64} radius="xl" variant="light">
            <IconMicrophone2 size={34} />
          </ThemeIcon>
          <Title order={1} fz={28}>
            Speaking at {eventName}?
          </Title>
          <Text c="dimmed">
            Add your bio and photo so attendees find you in the Q&amp;A Room and can send you their
            questions. You will get a username to follow them on your dashboard.
          </Text>
          <Button size="lg" leftSection={<IconUserPlus size={20} />} onClick={join.open}>
            {QA_TEXTS.addSpeakerBio}
          </Button>
          <Text size="sm">
            Already added your bio?{' '}
            <Anchor component={Link} to={CLIENT_PATHS.speakerLogin} fw={700}>
              Log in
            </Anchor>
          </Text>
        </Stack>
      </Paper>
      <JoinSpeakerModal opened={joining} onClose={join.close} onJoined={setJoined} />
      <UploadedModal joined={joined} onClose={() => setJoined(null)} />
    </Center>
  );
}
