import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCameraPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { MemoryPostResponse } from '../../../shared/schemas/memory.ts';
import { lazyModal } from '../../components/lazy-modal.tsx';
import { useT } from '../../i18n/language.ts';

const MemoryFormModal = lazyModal(
  async () => (await import('./memory-form-modal.tsx')).MemoryFormModal,
  (props) => props.opened,
);
const MemorySharedModal = lazyModal(
  async () => (await import('./memory-shared-modal.tsx')).MemorySharedModal,
  (props) => props.result !== null,
);

/** "SHARE A MEMORY": opens the memory form; a successful post opens "Memory Shared". */
export function ShareMemoryAction({ openOnMount = false }: { openOnMount?: boolean }) {
  const t = useT();
  const [formOpened, form] = useDisclosure(openOnMount);
  const [shared, setShared] = useState<MemoryPostResponse | null>(null);
  return (
    <>
      <Button size="lg" leftSection={<IconCameraPlus size={22} />} onClick={form.open}>
        {t('memories.shareButton')}
      </Button>
      <MemoryFormModal
        opened={formOpened}
        onClose={form.close}
        onShared={(result) => {
          form.close();
          setShared(result);
        }}
      />
      <MemorySharedModal result={shared} onClose={() => setShared(null)} />
    </>
  );
}
