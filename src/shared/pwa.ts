/** The installable app's addresses (no imports: the service worker reads them too). */

/** The web app manifest, made by the server from the event's settings. */
export const WEB_MANIFEST_PATH = '/manifest.webmanifest';

/** Where the phone's share sheet sends photos and videos (the service worker answers it). */
export const SHARE_TARGET_PATH = '/share-target';

/** The memory form opened by a share finds the shared files when this parameter is set. */
export const SHARED_FILES_PARAM = 'shared';

/** Where the service worker keeps shared files for the form: IndexedDB database and store. */
export const SHARED_FILES_STORE = ['confab-shared', 'files'] as const;
