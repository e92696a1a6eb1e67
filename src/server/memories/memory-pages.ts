import type { FastifyRequest } from 'fastify';
import { CLIENT_PATHS, memorySharePath } from '../../shared/routes.ts';
import { type Memory, memoryListQuerySchema } from '../../shared/schemas/memory.ts';
import { idSchema } from '../../shared/schemas/common.ts';
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import type { PageHead } from '../http/pages/client-app.ts';
import { WHOLE_LIST } from '../lists/list-cache.ts';
import { findMemory, listMemories } from './memory.repository.ts';

// What the pages of the gallery and of one memory say of it before any script runs: the picture
// a phone preloads, and the tags a link preview reads.

/** The gallery page a poll without a query asks for. */
const DEFAULT_MEMORY_PAGE = memoryListQuerySchema.parse({});

const DESCRIPTION_MAX = 200;
const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/**
 * The gallery's first picture, which is what a phone's screen shows largest on /home and
 * /memories: the newest memory's thumbnail, preloaded from the page (decision 072). Read once
 * per version of the gallery, as its first page is.
 */
export function galleryPageImages(deps: Pick<AppDeps, 'db' | 'lists'>) {
  let known: { tag: string; images: Promise<string[]> } | undefined;
  const readNewest = async (): Promise<string[]> => {
    const [newest] = await listMemories(deps.db, {
      ...DEFAULT_MEMORY_PAGE,
      limit: 1,
      status: 'published',
    });
    if (!newest) return [];
    // A video's tile is its poster's small picture (decision 154).
    const isImage = newest.contentType.startsWith('image/');
    const url = newest.thumbnail ?? (isImage ? newest.media : null);
    return url ? [url] : [];
  };
  const newestThumbnail = async (): Promise<string[]> => {
    // The version is read before the row: a change in between only costs one more read.
    const tag = await deps.lists.version('memories', WHOLE_LIST);
    if (known?.tag !== tag) {
      const entry = { tag, images: readNewest() };
      known = entry;
      // A failed read is not kept: the next page load tries again.
      entry.images.catch(() => {
        if (known === entry) known = undefined;
      });
    }
    return known.images;
  };
  return { [CLIENT_PATHS.home]: newestThumbnail, [CLIENT_PATHS.memories]: newestThumbnail };
}

/**
 * The picture a link preview shows for a memory: the display rendition of a photo; for a video
 * its still frame when it has one, else none. One place, so the video's poster plugs in here.
 */
export const previewImageOf = (
  memory: Memory,
): { url: string; type?: string; width?: number; height?: number } | undefined => {
  if (memory.contentType.startsWith('image/')) {
    return {
      url: memory.media,
      type: memory.contentType,
      ...(memory.width && memory.height ? { width: memory.width, height: memory.height } : {}),
    };
  }
  // A video's link preview is its poster (decision 154).
  if (memory.poster) return { url: memory.poster, type: 'image/jpeg' };
  return memory.thumbnail ? { url: memory.thumbnail } : undefined;
};

/**
 * The Open Graph and `twitter:card` tags naming one published memory, with absolute URLs from
 * `PUBLIC_URL` (paths when it is unset), never from the request's Host header (decision 134).
 * `url` is the address the tags name as the page's own.
 */
export function memoryHead(
  memory: Memory,
  config: Pick<Config, 'publicUrl' | 'eventName'>,
  eventName: string,
  path: string,
): PageHead {
  const origin = config.publicUrl ?? '';
  const title = `${memory.username}'s memory at ${eventName}`;
  const caption = memory.text.replace(/\s+/g, ' ').trim();
  const description = clip(caption, DESCRIPTION_MAX);
  const image = previewImageOf(memory);
  const imageUrl = image && `${origin}${image.url}`;
  const imageAlt = image && clip(memory.text, 400);
  const imageSize = image?.width && image.height ? image : undefined;
  const isImage = memory.contentType.startsWith('image/');
  // Each tag in the order it is written; one without content (`undefined`) is left out.
  const openGraph: [string, string | undefined][] = [
    ['site_name', eventName],
    ['type', isImage ? 'article' : 'video.other'],
    ['title', title],
    ['description', description],
    ['url', `${origin}${path}`],
    ['image', imageUrl],
    ['image:alt', imageAlt],
    ['image:type', image?.type],
    ['image:width', imageSize && String(imageSize.width)],
    ['image:height', imageSize && String(imageSize.height)],
    ['video', isImage ? undefined : `${origin}${memory.media}`],
    ['video:type', isImage ? undefined : memory.contentType],
  ];
  const twitter: [string, string | undefined][] = [
    ['card', image ? 'summary_large_image' : 'summary'],
    ['title', title],
    ['description', description],
    ['image', imageUrl],
    ['image:alt', imageAlt],
  ];
  const meta: PageHead['meta'] = [
    ...openGraph.flatMap(([tag, content]) =>
      content === undefined ? [] : [{ property: `og:${tag}`, content }],
    ),
    ...twitter.flatMap(([tag, content]) =>
      content === undefined ? [] : [{ name: `twitter:${tag}`, content }],
    ),
    { name: 'description', content: description },
  ];
  return { title, meta };
}

/** A published memory by id, or undefined (also for an id that is not one). */
async function publishedMemory(
  deps: Pick<AppDeps, 'db'>,
  id: unknown,
): Promise<Memory | undefined> {
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) return undefined;
  const found = await findMemory(deps.db, parsed.data);
  return found?.memory.status === 'published' ? found.memory : undefined;
}

/**
 * The link-preview tags of a memory's pages: `/memory?id=…` (the page as it is for a missing or
 * unknown id) and its share link `/m/:id` (a 404 page for a memory that is not published).
 */
export function memoryPageHead(deps: Pick<AppDeps, 'db' | 'config' | 'settings'>) {
  return {
    [CLIENT_PATHS.memory]: async (request: FastifyRequest): Promise<PageHead | undefined> => {
      const query = request.query as Record<string, unknown> | undefined;
      const memory = await publishedMemory(deps, query?.id);
      if (!memory) return undefined;
      const path = `${CLIENT_PATHS.memory}?id=${encodeURIComponent(memory._id)}`;
      return memoryHead(memory, deps.config, deps.settings.current.eventName, path);
    },
    [CLIENT_PATHS.memoryShare]: async (request: FastifyRequest): Promise<PageHead | null> => {
      // `/m/<id>`: an id is plain text, so the segment is taken as it is.
      const id = request.url.split('?', 1)[0]?.split('/')[2];
      const memory = await publishedMemory(deps, id);
      if (!memory) return null;
      return memoryHead(
        memory,
        deps.config,
        deps.settings.current.eventName,
        memorySharePath(memory._id),
      );
    },
  };
}
