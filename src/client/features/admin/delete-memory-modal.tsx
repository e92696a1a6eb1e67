import type { Memory } from '../../../shared/schemas/memory.ts';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';

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
    <ConfirmDeleteModal
      opened={memory !== null}
      title="Delete this memory?"
      quote={memory?.text}
      onCancel={onCancel}
      onConfirm={() => memory && onConfirm(memory)}
    >
      The memory by <strong>{memory?.username}</strong> and its files will be removed from every
      gallery. This cannot be undone.
    </ConfirmDeleteModal>
  );
}
