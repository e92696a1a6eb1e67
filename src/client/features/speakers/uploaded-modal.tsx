import {
  ActionIcon,
  Alert,
  Avatar,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { Link } from 'react-router';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { CLIENT_PATHS, speakerSignInLink } from '../../../shared/routes.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { ModalActions } from '../../components/modal-actions.tsx';

/** "Uploaded Succesfully" (the product's spelling): the username to log in with, and the way on. */
export function UploadedModal({
  joined,
  onClose,
}: {
  joined: { speaker: Speaker; secret: string } | null;
  onClose: () => void;
}) {
  const speaker = joined?.speaker;
  const link = joined
    ? speakerSignInLink(window.location.origin, joined.speaker.username, joined.secret)
    : '';
  return (
    <Modal
      opened={joined !== null}
      size="lg"
      // The secret is shown once: a click beside the dialog must not lose it.
      closeOnClickOutside={false}
      onClose={onClose}
      title={QA_TEXTS.uploadedTitle}
    >
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
          <Stack gap={6} w="100%" ta="left">
            <Text fw={700}>Your sign-in link</Text>
            <Alert color="orange" variant="light" icon={<IconAlertTriangle />} p="sm">
              {QA_TEXTS.secretWarning}
            </Alert>
            <TextInput
              readOnly
              value={link}
              aria-label="Your sign-in link"
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'light' : 'filled'}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  onClick={copy}
                >
                  {copied ? QA_TEXTS.copied : QA_TEXTS.copyLink}
                </Button>
              )}
            </CopyButton>
            <Text size="sm" c="dimmed">
              With it your dashboard can mark questions answered, pin one and hide others. Your
              username alone opens the dashboard read-only. Lost it? The organisers can issue a new
              one.
            </Text>
          </Stack>
          <ModalActions justify="center">
            <Button
              component={Link}
              to={`${CLIENT_PATHS.speakerLogin}#${new URL(link).hash.slice(1)}`}
              variant="light"
              onClick={onClose}
            >
              Open my dashboard
            </Button>
            <Button component={Link} to={CLIENT_PATHS.home} onClick={onClose}>
              {QA_TEXTS.viewMemories}
            </Button>
          </ModalActions>
        </Stack>
      )}
    </Modal>
  );
}
