import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconDownload, IconPhotoOff, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useState } from 'react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { translate, useT } from '../../i18n/language.ts';
import classes from './memories.module.css';

/** Shown in place of an image that fails to load. */
export const FALLBACK_IMAGE = '/media-fallback.svg';

export const isImage = (memory: Memory) =>
  Boolean(memory.media) && memory.contentType.startsWith('image/');
export const isVideo = (memory: Memory) =>
  Boolean(memory.media) && memory.contentType.startsWith('video/');

/** What a screen reader says for a memory's picture, in the shown language. */
export const mediaLabel = (memory: Memory) => {
  const caption = memory.text.length > 100 ? `${memory.text.slice(0, 99)}…` : memory.text;
  return translate('memories.mediaLabel', {
    kind: isVideo(memory) ? 'video' : 'photo',
    username: memory.username,
    caption,
  });
};

/**
 * The one place that chooses which file shows a memory: the thumbnail on a tile, the display
 * rendition in the viewer and on its page.
 */
export const imageUrlOf = (memory: Memory, size: 'thumb' | 'full'): string =>
  size === 'thumb' ? (memory.thumbnail ?? memory.media) : memory.media;

/** The gallery's columns (2, 3 from `sm`, 4 from `md`) as `sizes`, for the tiles' `srcset`. */
const TILE_SIZES = '(min-width: 62em) 25vw, (min-width: 48em) 33vw, 50vw';
/** The thumbnail's longest side (the server's plan for memories). */
const THUMBNAIL_SIDE = 480;

/**
 * A tile's candidates: the thumbnail, and the display rendition for screens that can use more
 * (a phone at three device pixels a CSS pixel, a tile cropped to a square).
 */
function tileSrcSet(memory: Memory): string | undefined {
  if (!memory.thumbnail || !memory.width || !memory.height) return undefined;
  const scale = Math.min(1, THUMBNAIL_SIDE / Math.max(memory.width, memory.height));
  if (scale === 1) return undefined;
  return `${memory.thumbnail} ${Math.round(memory.width * scale)}w, ${memory.media} ${memory.width}w`;
}

function ImageWithFallback({
  src,
  srcSet,
  alt,
  className,
  loading,
  width,
  height,
}: {
  src: string;
  /** Other sizes of the same picture, chosen by the browser for the tile's width. */
  srcSet?: string | undefined;
  alt: string;
  className: string | undefined;
  /** `lazy` waits until the image nears the viewport; `priority` fetches it first, at once. */
  loading: 'lazy' | 'eager' | 'priority';
  width: number | null;
  height: number | null;
}) {
  const t = useT();
  const [failed, setFailed] = useState(false);
  return (
    <img
      src={failed ? FALLBACK_IMAGE : src}
      srcSet={failed ? undefined : srcSet}
      sizes={srcSet && !failed ? TILE_SIZES : undefined}
      alt={failed ? t('memories.imageUnavailable', { alt }) : alt}
      className={className}
      loading={loading === 'lazy' ? 'lazy' : 'eager'}
      fetchPriority={loading === 'priority' ? 'high' : undefined}
      decoding="async"
      width={width ?? undefined}
      height={height ?? undefined}
      onError={() => setFailed(true)}
    />
  );
}

/**
 * A memory's picture or video. `thumb` is the gallery tile (thumbnail, lazy unless `priority`,
 * cropped to the tile; a video's is its picture with a play mark, played in the viewer), `full`
 * the display rendition at its own shape; anything else: "No media
 * available". Both carry the picture's width and height, so the browser knows its shape before
 * it arrives.
 */
export function MemoryMediaView({
  memory,
  size,
  priority = false,
}: {
  memory: Memory;
  size: 'thumb' | 'full';
  priority?: boolean;
}) {
  const t = useT();
  if (isImage(memory)) {
    const thumb = size === 'thumb';
    return (
      <ImageWithFallback
        src={imageUrlOf(memory, size)}
        srcSet={thumb ? tileSrcSet(memory) : undefined}
        alt={mediaLabel(memory)}
        className={thumb ? classes.tileMedia : classes.fullMedia}
        loading={!thumb ? 'eager' : priority ? 'priority' : 'lazy'}
        width={memory.width}
        height={memory.height}
      />
    );
  }
  if (isVideo(memory)) {
    const thumb = size === 'thumb';
    // The tile shows the small picture, the opened memory the large one (decision 154).
    const poster = (thumb ? (memory.thumbnail ?? memory.poster) : memory.poster) ?? undefined;
    if (memory.processing) {
      // Until its playable copy is ready: the poster, and what is happening.
      return (
        <div className={classes.processing}>
          {poster ? (
            <ImageWithFallback
              src={poster}
              alt={mediaLabel(memory)}
              className={thumb ? classes.tileMedia : classes.fullMedia}
              loading={thumb && !priority ? 'lazy' : 'eager'}
              width={memory.width}
              height={memory.height}
            />
          ) : (
            <div className={thumb ? classes.tileMedia : classes.fullMedia} />
          )}
          <Center className={classes.processingBadge} role="status">
            <Loader size="xs" color="white" aria-hidden />
            <Text size="xs" fw={700} c="white">
              {t('memories.videoProcessing')}
            </Text>
          </Center>
        </div>
      );
    }
    if (thumb) {
      // A tile is a picture that opens the viewer, as a photo's is: no controls to take the
      // tap; the viewer plays it. A play mark says it is a video.
      return (
        <div className={classes.tileVideo}>
          {poster ? (
            <ImageWithFallback
              src={poster}
              alt={mediaLabel(memory)}
              className={classes.tileMedia}
              loading={priority ? 'priority' : 'lazy'}
              width={memory.width}
              height={memory.height}
            />
          ) : (
            <video
              src={memory.media}
              className={classes.tileMedia}
              muted
              playsInline
              preload="metadata"
              tabIndex={-1}
              width={memory.width ?? undefined}
              height={memory.height ?? undefined}
              aria-label={mediaLabel(memory)}
            />
          )}
          <Center className={classes.playMark} aria-hidden>
            <IconPlayerPlayFilled size={22} />
          </Center>
        </div>
      );
    }
    return (
      <video
        src={memory.media}
        poster={poster}
        className={classes.fullMedia}
        controls
        playsInline
        // With a poster, nothing is fetched until it is played.
        preload={poster ? 'none' : 'metadata'}
        width={memory.width ?? undefined}
        height={memory.height ?? undefined}
        aria-label={mediaLabel(memory)}
      />
    );
  }
  return (
    <Center className={classes.noMedia}>
      <Stack align="center" gap={4}>
        <IconPhotoOff size={28} aria-hidden />
        <Text size="sm">{t('memories.noMedia')}</Text>
      </Stack>
    </Center>
  );
}

/**
 * The URL that saves a memory's full-resolution master (never the file as sent, which carries
 * the GPS position); undefined when there is none.
 */
export function downloadUrl(memory: Memory): string | undefined {
  if (!isImage(memory) && !isVideo(memory)) return undefined;
  return `${memory.original || memory.media}?download=1`;
}

/** Spec: a download with no media or an unsupported type is only logged. */
export function logUndownloadable(memory: Memory): void {
  console.warn(`Memory ${memory._id} has no media that can be downloaded (${memory.contentType}).`);
}

/** The Download button: saves memory.png / memory.mp4 (the server names the file). */
export function DownloadButton({ memory }: { memory: Memory }) {
  const t = useT();
  const href = downloadUrl(memory);
  return href ? (
    <Button component="a" href={href} download leftSection={<IconDownload size={18} />}>
      {t('memories.download')}
    </Button>
  ) : (
    <Button leftSection={<IconDownload size={18} />} onClick={() => logUndownloadable(memory)}>
      {t('memories.download')}
    </Button>
  );
}
