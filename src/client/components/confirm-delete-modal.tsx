import { Button, Modal, Stack, Text } from '@mantine/core';
import { type Icon, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useMessages } from '../i18n/language.ts';
import { ModalActions } from './modal-actions.tsx';

/**
 * Asks before something is deleted (or replaced) for everyone: what goes (`children`, saying it
 * cannot be undone), its text quoted, then Cancel and the red button, which has the focus.
 */
export function ConfirmDeleteModal({
  opened,
  title,
  quote,
  confirmLabel,
  deleting = false,
  icon: ConfirmIcon = IconTrash,
  onCancel,
  onConfirm,
  children,
}: {
  opened: boolean;
  title: string;
  /** The caption or text of what goes. */
  quote?: string | undefined;
  /** The red button's text ("Delete" unless given). */
  confirmLabel?: string;
  /** The deletion is under way: the button spins. */
  deleting?: boolean;
  /** The red button's icon (a bin: it deletes). */
  icon?: Icon;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  const { t, rich } = useMessages();
  return (
    <Modal opened={opened} onClose={onCancel} title={title}>
      {opened && (
        <Stack gap="md">
          <Text>{children}</Text>
          {quote && (
            <Text fz="sm" c="dimmed" lineClamp={4} style={{ overflowWrap: 'anywhere' }}>
              {rich('dialog.quote', { quote: <bdi>{quote}</bdi> })}
            </Text>
          )}
          <ModalActions>
            <Button variant="default" onClick={onCancel}>
              {t('dialog.cancel')}
            </Button>
            <Button
              color="red"
              leftSection={<ConfirmIcon size={18} />}
              loading={deleting}
              onClick={onConfirm}
              data-autofocus
            >
              {confirmLabel ?? t('dialog.delete')}
            </Button>
          </ModalActions>
        </Stack>
      )}
    </Modal>
  );
}
