import { Anchor, Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMicrophone2, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { useMessages } from '../../i18n/language.ts';
import { useEventName } from '../../lib/event-name.ts';
import { JoinSpeakerModal } from './join-speaker-modal.tsx';
import { UploadedModal } from './uploaded-modal.tsx';

/** /Speakerform: the speaker sign-up landing. */
export default function SpeakerFormScreen() {
  const { t, rich } = useMessages();
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
            {rich('speakers.formTitle', { eventName: <bdi>{eventName}</bdi> })}
          </Title>
          <Text c="dimmed">{t('speakers.formIntro')}</Text>
          <Button size="lg" leftSection={<IconUserPlus size={20} />} onClick={join.open}>
            {t('speakers.addBio')}
          </Button>
          <Text size="sm">
            {rich('speakers.alreadyAdded', {
              link: (chunks) => (
                <Anchor component={Link} to={CLIENT_PATHS.speakerLogin} fw={700}>
                  {chunks}
                </Anchor>
              ),
            })}
          </Text>
        </Stack>
      </Paper>
      <JoinSpeakerModal opened={joining} onClose={join.close} onJoined={setJoined} />
      <UploadedModal joined={joined} onClose={() => setJoined(null)} />
    </Center>
  );
}
