import { memorySharePath } from '../../../shared/routes.ts';

/**
 * The link a share carries: `/m/:id`, whose page carries the memory's link-preview tags and
 * opens the memory's own page.
 */
export const memoryPageUrl = (id: string): string =>
  new URL(memorySharePath(id), window.location.origin).toString();

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/** "#DevFest2026" from "DevFest 2026": letters and digits only. */
export const eventHashtag = (eventName: string): string => {
  const tag = eventName.replace(/[^\p{L}\p{N}_]/gu, '');
  return tag ? `#${tag}` : '';
};

/** The text of a post about a memory: its caption (clipped to fit a post) and the event tag. */
export const shareText = (caption: string, eventName: string): string =>
  [clip(caption.replace(/\s+/g, ' ').trim(), 200), eventHashtag(eventName)]
    .filter(Boolean)
    .join(' ');

/** X's web intent: opens a prefilled post in the person's own account (nothing is sent for them). */
export const xIntentUrl = (text: string, url?: string): string => {
  const query = new URLSearchParams({ text });
  if (url) query.set('url', url);
  return `https://x.com/intent/tweet?${query.toString()}`;
};

/** Whether this browser has the Web Share API (phones, mostly). */
export const canShare = (): boolean =>
  typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** Whether the Web Share API can carry these files too. */
export const canShareFiles = (files: File[]): boolean =>
  files.length > 0 &&
  canShare() &&
  typeof navigator.canShare === 'function' &&
  navigator.canShare({ files });

/**
 * Opens the device's share sheet, with the files where it can take them. Answers false when
 * the person closed it without sharing.
 */
export async function shareWithDevice(data: {
  title: string;
  text: string;
  url?: string;
  files?: File[];
}): Promise<boolean> {
  const payload: ShareData = { title: data.title, text: data.text };
  if (data.url) payload.url = data.url;
  if (data.files && canShareFiles(data.files)) payload.files = data.files;
  try {
    await navigator.share(payload);
    return true;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return false;
    throw error;
  }
}
