import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBrandX } from '@tabler/icons-react';
import { lazyModal } from '../../components/lazy-modal.tsx';
import { useT } from '../../i18n/language.ts';

const ShareMomentsDialog = lazyModal(
  async () => (await import('./share-moments-dialog.tsx')).ShareMomentsDialog,
  (props) => props.opened,
);

/** Opens the share dialog: the gallery's way to post moments on X. */
export function ShareMomentsButton() {
  const t = useT();
  const [opened, dialog] = useDisclosure(false);
  return (
    <>
      <Button variant="light" leftSection={<IconBrandX size={18} />} onClick={dialog.open}>
        {t('share.momentsButton')}
      </Button>
      <ShareMomentsDialog opened={opened} onClose={dialog.close} />
    </>
  );
}
