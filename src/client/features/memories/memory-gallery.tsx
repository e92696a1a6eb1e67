import { Alert, Button, Center, Image, Loader, Stack, Text } from '@mantine/core';
import { useIntersection } from '@mantine/hooks';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { MEMORY_TEXTS } from '../../../shared/constants.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { type GridPlace, VirtualGrid } from '../../components/virtual-grid.tsx';
import { useGallery } from './api/get-memories.ts';
import { lazyModal } from '../../components/lazy-modal.tsx';
import { MemoryTile } from './memory-tile.tsx';
import { useMemoryEvents } from './use-memory-events.ts';
import classes from './memories.module.css';

const DownloadMemoryModal = lazyModal(
  async () => (await import('./download-memory-modal.tsx')).DownloadMemoryModal,
  (props) => props.memory !== null,
);

const GALLERY_COLUMNS = { base: 2, sm: 3, md: 4 };
const GALLERY_SPACING = { base: 'xs', sm: 'md' } as const;
const memoryKey = (memory: Memory) => memory._id;

function GalleryLoading() {
  return (
    <Center py="xl" aria-busy="true">
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text c="dimmed">{MEMORY_TEXTS.loading}</Text>
      </Stack>
    </Center>
  );
}

function GalleryEmpty() {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <Image src="/no-data.svg" alt="" w={200} h={150} fit="contain" />
        <Text fw={700} fz="lg">
          {MEMORY_TEXTS.noMedia}
        </Text>
        <Text c="dimmed" ta="center" size="sm">
          Be the first to share a moment from the event.
        </Text>
      </Stack>
    </Center>
  );
}

/**
 * The live gallery: 2 to 4 columns by width, newest first. New and deleted memories arrive by
 * socket (polling every 3 s stays as the fallback); older pages load as the end comes near.
 * Only the rows near the viewport are in the DOM, so thousands of memories stay light.
 */
export function MemoryGallery() {
  useMemoryEvents();
  const gallery = useGallery();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = gallery;
  const [selected, setSelected] = useState<Memory | null>(null);
  const memories = useMemo(() => {
    // Pages can overlap for a moment while a new memory shifts them: show each memory once.
    const seen = new Set<string>();
    return (gallery.data?.pages.flat() ?? []).filter((memory) => {
      if (seen.has(memory._id)) return false;
      seen.add(memory._id);
      return true;
    });
  }, [gallery.data]);

  const { ref: sentinelRef, entry } = useIntersection({ rootMargin: '800px 0px' });
  const nearEnd = entry?.isIntersecting ?? false;
  useEffect(() => {
    if (nearEnd && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [nearEnd, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const open = useCallback((memory: Memory) => setSelected(memory), []);
  const close = useCallback(() => setSelected(null), []);
  // The first row is what a visitor sees first: its thumbnails load at once, with priority.
  const renderTile = useCallback(
    (memory: Memory, { row }: GridPlace) => (
      <MemoryTile memory={memory} onOpen={open} priority={row === 0} />
    ),
    [open],
  );

  if (gallery.isPending) return <GalleryLoading />;
  if (gallery.isError && memories.length === 0) {
    // The spec shows a gallery error as it is: the message the server (or network) gave.
    return (
      <Alert
        color="red"
        variant="light"
        title="The gallery could not be loaded"
        icon={<IconAlertTriangle />}
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{gallery.error.message}</Text>
          <Button
            size="sm"
            variant="light"
            color="red"
            leftSection={<IconRefresh size={16} />}
            onClick={() => void gallery.refetch()}
          >
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (memories.length === 0) return <GalleryEmpty />;

  return (
    <>
      <VirtualGrid
        items={memories}
        cols={GALLERY_COLUMNS}
        spacing={GALLERY_SPACING}
        getKey={memoryKey}
        renderItem={renderTile}
      />
      <div ref={sentinelRef} className={classes.sentinel} />
      {isFetchingNextPage ? (
        <GalleryLoading />
      ) : hasNextPage ? (
        <Center py="md">
          <Button variant="default" onClick={() => void fetchNextPage()}>
            Load older memories
          </Button>
        </Center>
      ) : null}
      <DownloadMemoryModal memory={selected} onClose={close} />
    </>
  );
}
