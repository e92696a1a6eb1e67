/** The installable app's addresses (no imports: the service worker reads them too). */

/** The web app manifest, made by the server from the event's settings. */
export const WEB_MANIFEST_PATH = '/manifest.webmanifest';

/** Where the phone's share sheet sends photos and videos (the service worker answers it). */
export const SHARE_TARGET_PATH = '/share-target';

/** The memory form opened by a share finds the shared files when this parameter is set. */
export const SHARED_FILES_PARAM = 'shared';

/** Where the service worker keeps shared files for the form: IndexedDB database and store. */
export const SHARED_FILES_STORE = ['confab-shared', 'files'] as const;

/**
 * The header the service worker adds to the pages it fetches. The server then names no files to
 * preload in the page: the worker answers those files from its cache, and a preload fetched
 * beside it is never used (the browser warns about each one in the console).
 */
export const SERVICE_WORKER_HEADER = 'x-confab-service-worker';
