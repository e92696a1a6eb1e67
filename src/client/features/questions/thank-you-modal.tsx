import { Button, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconHeartHandshake } from '@tabler/icons-react';
import { Link } from 'react-router';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { ModalActions } from '../../components/modal-actions.tsx';

/** Shown after a question was stored; leads to the attendee's own questions. */
export function ThankYouModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={QA_TEXTS.thankYouTitle}>
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color="green">
          <IconHeartHandshake size={36} />
        </ThemeIcon>
        <Text>{QA_TEXTS.thankYouText}</Text>
        <ModalActions justify="center">
          <Button
            component={Link}
            to={`${CLIENT_PATHS.questions}?show=mine`}
            variant="light"
            onClick={onClose}
          >
            See my questions
          </Button>
          <Button onClick={onClose}>Done</Button>
        </ModalActions>
      </Stack>
    </Modal>
  );
}
