import {
  ActionIcon,
  Avatar,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { Link } from 'react-router';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { CLIENT_PATHS, speakerDashboardPath } from '../../../shared/routes.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';

/** "Uploaded Succesfully" (the product's spelling): the username to log in with, and the way on. */
export function UploadedModal({
  speaker,
  onClose,
}: {
  speaker: Speaker | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={speaker !== null} onClose={onClose} title={QA_TEXTS.uploadedTitle}>
      {speaker && (
        <Stack gap="md" align="center" ta="center">
          <Avatar src={speaker.avatar} alt="" name={speaker.name} size={88} radius={88} />
          <Text fw={700}>Welcome, {speaker.name}!</Text>
          <Stack gap={4} align="center">
            <Text size="sm" c="dimmed">
              Your username for the speaker login:
            </Text>
            <Group gap={6} wrap="nowrap">
              <Code fz="lg" px="sm" py={4} aria-label="Your username">
                {speaker.username}
              </Code>
              <CopyButton value={speaker.username}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                    <ActionIcon
                      variant="subtle"
                      size="lg"
                      onClick={copy}
                      aria-label="Copy the username"
                    >
                      {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          </Stack>
          <Group justify="center" gap="sm">
            <Button
              component={Link}
              to={speakerDashboardPath(speaker.username)}
              variant="light"
              onClick={onClose}
            >
              Open my dashboard
            </Button>
            <Button component={Link} to={CLIENT_PATHS.home} onClick={onClose}>
              {QA_TEXTS.viewMemories}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
