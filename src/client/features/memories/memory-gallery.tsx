import { Button, Center, Image, Stack, Text } from '@mantine/core';
import { useIntersection } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { MEMORY_TEXTS } from '../../../shared/constants.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { lazyModal } from '../../components/lazy-modal.tsx';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { type GridPlace, VirtualGrid } from '../../components/virtual-grid.tsx';
import { useStoredUsername } from '../../lib/username.ts';
import { useGallery } from './api/get-memories.ts';
import { MemoriesLoading } from './memories-loading.tsx';
import { MemoryTile } from './memory-tile.tsx';
import { forgetOwnPending, useOwnPending } from './own-pending.ts';
import { useMemoryEvents } from './use-memory-events.ts';
import classes from './memories.module.css';

const DownloadMemoryModal = lazyModal(
  async () => (await import('./download-memory-modal.tsx')).DownloadMemoryModal,
  (props) => props.memory !== null,
);

const GALLERY_COLUMNS = { base: 2, sm: 3, md: 4 };
const GALLERY_SPACING = { base: 'xs', sm: 'md' } as const;
const memoryKey = (memory: Memory) => memory._id;

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
  const [username] = useStoredUsername();
  const ownPending = useOwnPending(username);
  const published = useMemo(() => {
    // Pages can overlap for a moment while a new memory shifts them: show each memory once.
    const seen = new Set<string>();
    return (gallery.data?.pages.flat() ?? []).filter((memory) => {
      if (seen.has(memory._id)) return false;
      seen.add(memory._id);
      return true;
    });
  }, [gallery.data]);
  // The poster's own memories awaiting approval come first, marked as waiting, until the
  // gallery has them (approved while the socket was away: the poll says so).
  const approved = useMemo(() => {
    const ids = new Set(published.map((memory) => memory._id));
    return ownPending.filter((memory) => ids.has(memory._id)).map((memory) => memory._id);
  }, [published, ownPending]);
  useEffect(() => {
    if (approved.length > 0) forgetOwnPending(approved);
  }, [approved]);
  const memories = useMemo(
    () =>
      ownPending.length === 0
        ? published
        : [...ownPending.filter((memory) => !approved.includes(memory._id)), ...published],
    [ownPending, published, approved],
  );

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

  if (gallery.isPending) return <MemoriesLoading py="xl" />;
  if (gallery.isError && memories.length === 0) {
    // The spec shows a gallery error as it is: the message the server (or network) gave.
    return (
      <RetryAlert title="The gallery could not be loaded" onRetry={() => void gallery.refetch()}>
        {gallery.error.message}
      </RetryAlert>
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
        <MemoriesLoading py="xl" />
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
