import type { Memory } from '../../../shared/schemas/memory.ts';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';
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
  const count = memories?.length ?? 0;
  return (
    <ConfirmDeleteModal
      opened={memories !== null}
      title={count > 1 ? 'Delete your post?' : 'Delete your memory?'}
      quote={memories?.[0]?.text}
      deleting={deleting}
      onCancel={onCancel}
      onConfirm={() => memories && onConfirm(memories)}
    >
      {count > 1
        ? `The post (${countLabel(count)}) will be removed from every gallery, with its files.`
        : 'It will be removed from every gallery, with its file.'}{' '}
      This cannot be undone.
    </ConfirmDeleteModal>
  );
}
