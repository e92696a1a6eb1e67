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
import { CLIENT_PATHS, speakerSignInLink } from '../../../shared/routes.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { ModalActions } from '../../components/modal-actions.tsx';
import { useMessages } from '../../i18n/language.ts';

/** "Uploaded Succesfully" (the product's spelling): the username to log in with, and the way on. */
export function UploadedModal({
  joined,
  onClose,
}: {
  joined: { speaker: Speaker; secret: string } | null;
  onClose: () => void;
}) {
  const { t, rich } = useMessages();
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
      title={t('speakers.uploadedTitle')}
    >
      {speaker && (
        <Stack gap="md" align="center" ta="center">
          <Avatar src={speaker.avatar} alt="" name={speaker.name} size={88} radius={88} />
          <Text fw={700}>{rich('speakers.welcome', { name: <bdi>{speaker.name}</bdi> })}</Text>
          <Stack gap={4} align="center">
            <Text size="sm" c="dimmed">
              {t('speakers.usernameFor')}
            </Text>
            <Group gap={6} wrap="nowrap">
              <Code fz="lg" px="sm" py={4} aria-label={t('speakers.yourUsername')}>
                {speaker.username}
              </Code>
              <CopyButton value={speaker.username}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t('speakers.copied') : t('speakers.copy')} withArrow>
                    <ActionIcon
                      variant="subtle"
                      size="lg"
                      onClick={copy}
                      aria-label={t('speakers.copyUsername')}
                    >
                      {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          </Stack>
          <Stack gap={6} w="100%" ta="start">
            <Text fw={700}>{t('speakers.signInLink')}</Text>
            <Alert color="orange" variant="light" icon={<IconAlertTriangle />} p="sm">
              {t('speakers.secretWarning')}
            </Alert>
            <TextInput
              readOnly
              value={link}
              aria-label={t('speakers.signInLink')}
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
                  {copied ? t('speakers.copied') : t('speakers.copyLink')}
                </Button>
              )}
            </CopyButton>
            <Text size="sm" c="dimmed">
              {t('speakers.signInLinkNote')}
            </Text>
          </Stack>
          <ModalActions justify="center">
            <Button
              component={Link}
              to={`${CLIENT_PATHS.speakerLogin}#${new URL(link).hash.slice(1)}`}
              variant="light"
              onClick={onClose}
            >
              {t('speakers.openDashboard')}
            </Button>
            <Button component={Link} to={CLIENT_PATHS.home} onClick={onClose}>
              {t('speakers.viewMemories')}
            </Button>
          </ModalActions>
        </Stack>
      )}
    </Modal>
  );
}
