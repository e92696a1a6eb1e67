import { Button, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconHeartHandshake } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { ModalActions } from '../../components/modal-actions.tsx';
import { useT } from '../../i18n/language.ts';

/** Shown after a question was stored; leads to the attendee's own questions. */
export function ThankYouModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const t = useT();
  return (
    <Modal opened={opened} onClose={onClose} title={t('qa.thankYouTitle')}>
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color="green">
          <IconHeartHandshake size={36} />
        </ThemeIcon>
        <Text>{t('qa.thankYouText')}</Text>
        <ModalActions justify="center">
          <Button
            component={Link}
            to={`${CLIENT_PATHS.questions}?show=mine`}
            variant="light"
            onClick={onClose}
          >
            {t('qa.seeMine')}
          </Button>
          <Button onClick={onClose}>{t('qa.done')}</Button>
        </ModalActions>
      </Stack>
    </Modal>
  );
}
