import { Button, Modal, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { ModalActions } from '../../components/modal-actions.tsx';

/** Asks before a memory is deleted for everyone. */
export function DeleteMemoryModal({
  memory,
  onCancel,
  onConfirm,
}: {
  memory: Memory | null;
  onCancel: () => void;
  onConfirm: (memory: Memory) => void;
}) {
  return (
    <Modal opened={memory !== null} onClose={onCancel} title="Delete this memory?">
      {memory && (
        <Stack gap="md">
          <Text>
            The memory by <strong>{memory.username}</strong> and its files will be removed from
            every gallery. This cannot be undone.
          </Text>
          {memory.text && (
            <Text fz="sm" c="dimmed" lineClamp={4} style={{ overflowWrap: 'anywhere' }}>
              “{memory.text}”
            </Text>
          )}
          <ModalActions>
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button
              color="red"
              leftSection={<IconTrash size={18} />}
              onClick={() => onConfirm(memory)}
              data-autofocus
            >
              Delete
            </Button>
          </ModalActions>
        </Stack>
      )}
    </Modal>
  );
}
