import { Group, Stack, Title } from '@mantine/core';
import { useT } from '../../i18n/language.ts';
import { MemoryGallery } from './memory-gallery.tsx';
import { ShareMemoryAction } from './share-memory-action.tsx';
import { ShareMomentsButton } from './share-moments-button.tsx';

/**
 * /memories (and /memoryForm, the same screen with the memory form opened on arrival): the
 * gallery with the ways to add to it.
 */
export default function MemoriesScreen({ openForm = false }: { openForm?: boolean }) {
  const t = useT();
  return (
    <Stack gap="lg" pt="lg">
      <Group justify="space-between" gap="sm">
        <Title order={1}>{t('memories.title')}</Title>
        <Group gap="sm">
          <ShareMomentsButton />
          <ShareMemoryAction openOnMount={openForm} />
        </Group>
      </Group>
      <MemoryGallery />
    </Stack>
  );
}

/** The gallery's heading and share-dialog trigger, for screens that compose it (/home). */
export function GallerySection() {
  const t = useT();
  return (
    <Stack gap="md" component="section" aria-labelledby="gallery-heading">
      <Group justify="space-between" gap="sm">
        <Title order={2} id="gallery-heading">
          {t('memories.title')}
        </Title>
        <ShareMomentsButton />
      </Group>
      <MemoryGallery />
    </Stack>
  );
}
