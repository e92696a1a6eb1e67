import { Button, Center, Image, Stack, Text } from '@mantine/core';
import { useIntersection } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { lazyModal } from '../../components/lazy-modal.tsx';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { type GridPlace, VirtualGrid } from '../../components/virtual-grid.tsx';
import { notifications } from '@mantine/notifications';
import { TOAST_AUTO_CLOSE } from '../../../shared/constants.ts';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { translate, useT } from '../../i18n/language.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { useDeleteOwnMemories, wasDeletedHere } from './api/delete-memory.ts';
import { useGallery } from './api/get-memories.ts';
import { useOwnMemoryIds } from './api/get-own-memories.ts';
import { MemoriesLoading } from './memories-loading.tsx';
import { type MemoryPost, groupPosts, viewerOrder } from './memory-posts.ts';
import { MemoryTile } from './memory-tile.tsx';
import { forgetOwnPending, useOwnPending } from './own-pending.ts';
import { type ViewerPlace, usePreloadNeighbours } from './viewer-place.ts';
import { useMemoryEvents } from './use-memory-events.ts';
import classes from './memories.module.css';

const MemoryViewer = lazyModal(
  async () => (await import('./memory-viewer.tsx')).MemoryViewer,
  (props) => props.place !== null,
);

const DeleteOwnMemoryModal = lazyModal(
  async () => (await import('./delete-own-memory-modal.tsx')).DeleteOwnMemoryModal,
  (props) => props.memories !== null,
);

const GALLERY_COLUMNS = { base: 2, sm: 3, md: 4 };
const GALLERY_SPACING = { base: 'xs', sm: 'md' } as const;
const postKey = (post: MemoryPost) => post.postId;

function GalleryEmpty() {
  const t = useT();
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <Image src="/no-data.svg" alt="" w={200} h={150} fit="contain" />
        <Text fw={700} fz="lg">
          {t('memories.noMedia')}
        </Text>
        <Text c="dimmed" ta="center" size="sm">
          {t('memories.emptyHint')}
        </Text>
      </Stack>
    </Center>
  );
}

/** The gallery's memories from its pages, each once (pages overlap for a moment while a new
 * memory shifts them). */
function galleryMemories(data: { pages: Memory[][] } | undefined): Memory[] {
  const seen = new Set<string>();
  return (data?.pages.flat() ?? []).filter((memory) => {
    if (seen.has(memory._id)) return false;
    seen.add(memory._id);
    return true;
  });
}

/**
 * The live gallery: 2 to 4 columns by width, newest first, one tile per post (decision 143).
 * New and deleted memories arrive by socket (polling every 3 s stays as the fallback); older
 * pages load as the end comes near. Only the rows near the viewport are in the DOM, so thousands
 * of memories stay light. A tile opens the viewer, which steps through the post and then the
 * gallery; a memory deleted anywhere closes in it at once.
 */
export function MemoryGallery() {
  const t = useT();
  const [openId, setOpenId] = useState<string | null>(null);
  // The open memory deleted by its author elsewhere or by the admin closes, saying why; one
  // deleted here is gone from the caches already, so the viewer has closed (no news to tell).
  useMemoryEvents((id) => {
    if (id !== openId) return;
    setOpenId(null);
    if (!wasDeletedHere(id)) {
      notifications.show({
        message: translate('memories.deletedElsewhere'),
        autoClose: TOAST_AUTO_CLOSE,
      });
    }
  });
  const gallery = useGallery();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = gallery;
  const own = useOwnMemoryIds();
  const remove = useDeleteOwnMemories();
  const [confirming, setConfirming] = useState<readonly Memory[] | null>(null);
  const [username] = useStoredUsername();
  const ownPending = useOwnPending(username);
  const published = useMemo(() => galleryMemories(gallery.data), [gallery.data]);
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
  const posts = useMemo(() => groupPosts(memories), [memories]);
  const order = useMemo(() => viewerOrder(posts), [posts]);

  const openIndex = openId === null ? -1 : order.findIndex((memory) => memory._id === openId);
  const place = useMemo<ViewerPlace | null>(() => {
    const memory = order[openIndex];
    if (!memory) return null;
    const post = posts.find((candidate) => candidate.postId === memory.postId);
    const items = post?.items ?? [memory];
    return {
      memory,
      inPost: { index: items.indexOf(memory) + 1, count: items.length },
      hasPrevious: openIndex > 0,
      hasNext: openIndex < order.length - 1 || hasNextPage,
    };
  }, [order, openIndex, posts, hasNextPage]);
  usePreloadNeighbours(place ? [order[openIndex - 1], order[openIndex + 1]] : []);

  const step = useCallback(
    (direction: -1 | 1) => {
      const next = order[openIndex + direction];
      if (next) {
        setOpenId(next._id);
        return;
      }
      if (direction === -1 || !hasNextPage || !openId) return;
      // Past the last memory loaded: the next page, then the step (an ongoing load is joined).
      void fetchNextPage({ cancelRefetch: false }).then(({ data }) => {
        const loaded = viewerOrder(groupPosts(galleryMemories(data)));
        const after = loaded[loaded.findIndex((memory) => memory._id === openId) + 1];
        if (after) setOpenId((current) => (current === openId ? after._id : current));
      });
    },
    [order, openIndex, openId, hasNextPage, fetchNextPage],
  );

  const { ref: sentinelRef, entry } = useIntersection({ rootMargin: '800px 0px' });
  const nearEnd = entry?.isIntersecting ?? false;
  useEffect(() => {
    if (nearEnd && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [nearEnd, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const open = useCallback((post: MemoryPost) => setOpenId(post.items[0]._id), []);
  const close = useCallback(() => setOpenId(null), []);
  const askDeletePost = useCallback((post: MemoryPost) => setConfirming(post.items), []);
  const confirmDelete = (targets: readonly Memory[]) => {
    remove.mutate(
      targets.map((memory) => memory._id),
      {
        onSuccess: () => {
          setConfirming(null);
          toastDone(
            translate(targets.length > 1 ? 'memories.postDeleted' : 'memories.memoryDeleted'),
          );
        },
        onError: (error) => {
          setConfirming(null);
          toastFailed(error, translate('memories.deleteFailed'));
        },
      },
    );
  };
  // The first row is what a visitor sees first: its thumbnails load at once, with priority.
  const renderTile = useCallback(
    (post: MemoryPost, { row }: GridPlace) => (
      <MemoryTile
        post={post}
        onOpen={open}
        onDelete={post.items.every((memory) => own.has(memory._id)) ? askDeletePost : undefined}
        priority={row === 0}
      />
    ),
    [open, own, askDeletePost],
  );

  // A screen's height kept while the first page loads: what is below the gallery (the footer)
  // waits out of sight instead of being pushed down by the tiles (no layout shift).
  if (gallery.isPending) return <MemoriesLoading py="xl" mih="100vh" />;
  if (gallery.isError && memories.length === 0) {
    // The spec shows a gallery error as it is: the message the server (or network) gave.
    return (
      <RetryAlert title={t('memories.galleryError')} onRetry={() => void gallery.refetch()}>
        {gallery.error.message}
      </RetryAlert>
    );
  }
  if (memories.length === 0) return <GalleryEmpty />;

  const shown = place?.memory;
  return (
    <>
      <VirtualGrid
        items={posts}
        cols={GALLERY_COLUMNS}
        spacing={GALLERY_SPACING}
        getKey={postKey}
        renderItem={renderTile}
      />
      <div ref={sentinelRef} className={classes.sentinel} />
      {isFetchingNextPage ? (
        <MemoriesLoading py="xl" />
      ) : hasNextPage ? (
        <Center py="md">
          <Button variant="default" onClick={() => void fetchNextPage()}>
            {t('memories.loadOlder')}
          </Button>
        </Center>
      ) : null}
      <MemoryViewer
        place={place}
        onStep={step}
        onClose={close}
        onDelete={shown && own.has(shown._id) ? (memory) => setConfirming([memory]) : undefined}
      />
      <DeleteOwnMemoryModal
        memories={confirming}
        deleting={remove.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={confirmDelete}
      />
    </>
  );
}
