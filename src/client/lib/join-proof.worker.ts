/// <reference lib="webworker" />
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { handler } from 'altcha-lib/workers/shared';

// One solver of the join's proof of work (decision 198): PBKDF2 through the browser's own Web
// Crypto, so a phone derives keys at native speed, off the page's main thread.
handler({ deriveKey });
