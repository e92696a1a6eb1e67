import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { countLabel } from './memory-tile.tsx';

/**
 * Asks before the attendee deletes their own memory (from the viewer) or post (from its tile):
 * it goes from every gallery and viewer at once, and its files with it.
 */
export function DeleteOwnMemoryModal({
  memories,
  deleting,
  onCancel,
  onConfirm,
}: {
  memories: readonly Memory[] | null;
  deleting: boolean;
  onCancel: () => void;
  onConfirm: (memories: readonly Memory[]) => void;
}) {
  const [first] = memories ?? [];
  const count = memories?.length ?? 0;
  return (
    <Modal
      opened={memories !== null}
      onClose={onCancel}
      title={count > 1 ? 'Delete your post?' : 'Delete your memory?'}
    >
      {memories && first && (
        <Stack gap="md">
          <Text>
            {count > 1
              ? `The post (${countLabel(count)}) will be removed from every gallery, with its files.`
              : 'It will be removed from every gallery, with its file.'}{' '}
            This cannot be undone.
          </Text>
          {first.text && (
            <Text fz="sm" c="dimmed" lineClamp={4} style={{ overflowWrap: 'anywhere' }}>
              “{first.text}”
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button
              color="red"
              leftSection={<IconTrash size={18} />}
              loading={deleting}
              onClick={() => onConfirm(memories)}
              data-autofocus
            >
              Delete
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
