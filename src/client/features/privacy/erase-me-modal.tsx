import { PRIVACY_TEXTS } from '../../../shared/privacy-texts.ts';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';

/** Asks before the attendee erases everything of theirs: what goes, and that it is for good. */
export default function EraseMeModal({
  opened,
  deleting,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  deleting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDeleteModal
      opened={opened}
      title={PRIVACY_TEXTS.confirmTitle}
      confirmLabel={PRIVACY_TEXTS.confirmButton}
      deleting={deleting}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {PRIVACY_TEXTS.confirmBody}
    </ConfirmDeleteModal>
  );
}
