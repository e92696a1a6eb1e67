import type { Memory } from '../../../shared/schemas/memory.ts';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';
import { useT } from '../../i18n/language.ts';

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
  const t = useT();
  const count = memories?.length ?? 0;
  return (
    <ConfirmDeleteModal
      opened={memories !== null}
      title={count > 1 ? t('memories.deletePostTitle') : t('memories.deleteMemoryTitle')}
      quote={memories?.[0]?.text}
      deleting={deleting}
      onCancel={onCancel}
      onConfirm={() => memories && onConfirm(memories)}
    >
      {count > 1 ? t('memories.deletePostBody', { count }) : t('memories.deleteMemoryBody')}
    </ConfirmDeleteModal>
  );
}
