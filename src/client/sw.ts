/**
 * The service worker (decision 171): the app shell cached for an offline start, the share
 * target, and the organiser's announcements pushed to the device (decision 240). It never answers `/api/*`, `/socket.io/*` or `/media/*`: those always go to the
 * network, so nothing live is ever served stale.
 */
import { createStore, set } from 'idb-keyval';
import {
  SERVICE_WORKER_HEADER,
  SHARED_FILES_PARAM,
  SHARED_FILES_STORE,
  SHARE_TARGET_PATH,
} from '../shared/pwa.ts';
import { CLIENT_PATHS } from '../shared/routes.ts';

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification & { data: unknown };
}
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface WorkerScope {
  __WB_MANIFEST: { url: string; revision: string | null }[];
  skipWaiting(): Promise<void>;
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  registration: {
    showNotification(title: string, options: NotificationOptions): Promise<void>;
  };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  location: Location;
}
declare const self: WorkerScope;

/** The built files, each with its revision: the cache's name changes with any of them. */
const PRECACHE = self.__WB_MANIFEST;
const VERSION = PRECACHE.map((entry) => `${entry.url}@${entry.revision ?? ''}`).join('|');
const SHELL_CACHE = `confab-shell-${hash(VERSION)}`;
const PAGES_CACHE = 'confab-pages';
/** What the network may take before an offline start uses the cached page instead. */
const NAVIGATION_TIMEOUT_MS = 4000;
/** The app's icon, as a notification shows it (a PNG: not every system draws an SVG). */
const NOTIFICATION_ICON = '/icons/icon-192.png';
/** Never answered here: live data and media always come from the server. */
const NETWORK_ONLY = /^\/(api|socket\.io|media)(\/|$)/;

function hash(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i += 1) h = (h * 33) ^ text.charCodeAt(i);
  return (h >>> 0).toString(36);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) =>
        cache.addAll(PRECACHE.map((entry) => new URL(entry.url, self.location.href).href)),
      )
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith('confab-shell-') && name !== SHELL_CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** Keeps the files shared from the phone's gallery for the memory form, then opens it. */
async function receiveShare(request: Request): Promise<Response> {
  const form = await request.formData();
  const files = form.getAll('files').filter((value): value is File => value instanceof File);
  await set('files', files, createStore(...SHARED_FILES_STORE));
  return Response.redirect(`${CLIENT_PATHS.memoryForm}?${SHARED_FILES_PARAM}=1`, 303);
}

/** The page's request headers, with the mark saying the service worker fetched it. */
function marked(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.set(SERVICE_WORKER_HEADER, '1');
  return copy;
}

/** A page: from the network (and kept), else the same page kept from before, else the app. */
async function navigate(request: Request): Promise<Response> {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await Promise.race([
      // The service worker forwards the page's own requests: not a call of the API. Marked, so
      // the page comes without preloads of the files this worker answers (SERVICE_WORKER_HEADER);
      // the copy keeps the navigation's manual redirects.
      // eslint-disable-next-line no-restricted-globals
      fetch(new Request(request, { headers: marked(request.headers) })),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('timeout')), NAVIGATION_TIMEOUT_MS),
      ),
    ]);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept =
      (await cache.match(request, { ignoreSearch: true })) ??
      (await cache.match(CLIENT_PATHS.home)) ??
      (await cache.match(CLIENT_PATHS.join));
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NETWORK_ONLY.test(url.pathname)) return;
  if (request.method === 'POST' && url.pathname === SHARE_TARGET_PATH) {
    event.respondWith(receiveShare(request));
    return;
  }
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate') {
    event.respondWith(navigate(request));
    return;
  }
  event.respondWith(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.match(request))
      // eslint-disable-next-line no-restricted-globals
      .then((cached) => cached ?? fetch(request)),
  );
});

/** What a pushed announcement carries (the server's `PushPayload`); read field by field. */
function pushedAnnouncement(data: PushEvent['data']): {
  title: string;
  body: string;
  url: string;
  lang: string;
} {
  let payload: Record<string, unknown> = {};
  try {
    const parsed = data?.json();
    if (parsed && typeof parsed === 'object') payload = parsed as Record<string, unknown>;
  } catch {
    payload = { body: data?.text() ?? '' };
  }
  const text = (value: unknown, fallback: string) =>
    typeof value === 'string' && value ? value : fallback;
  const url = text(payload.url, CLIENT_PATHS.home);
  return {
    title: text(payload.title, 'Announcement'),
    body: text(payload.body, ''),
    lang: text(payload.lang, ''),
    // Only the app's own pages are opened.
    url: url.startsWith('/') && !url.startsWith('//') ? url : CLIENT_PATHS.home,
  };
}

// An announcement pushed to the device: shown as a notification, even with the app closed.
self.addEventListener('push', (event) => {
  const { title, body, url, lang } = pushedAnnouncement(event.data);
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      // The title's words are in the subscriber's language; the text is the organiser's, in its
      // own direction.
      lang,
      dir: 'auto',
      icon: NOTIFICATION_ICON,
      tag: url,
      data: { url },
    }),
  );
});

// A tap on it: the app's open window goes to the announcement, or a new one opens on it.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const url = new URL(
    typeof data?.url === 'string' ? data.url : CLIENT_PATHS.home,
    self.location.origin,
  ).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (!open) return self.clients.openWindow(url);
      const focused = await open.focus();
      return focused.navigate(url);
    }),
  );
});
