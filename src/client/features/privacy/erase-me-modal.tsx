import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';
import { useT } from '../../i18n/language.ts';

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
  const t = useT();
  return (
    <ConfirmDeleteModal
      opened={opened}
      title={t('privacy.confirmTitle')}
      confirmLabel={t('privacy.confirmButton')}
      deleting={deleting}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {t('privacy.confirmBody')}
    </ConfirmDeleteModal>
  );
}
