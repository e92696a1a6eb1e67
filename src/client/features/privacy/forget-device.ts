import { STORAGE_KEYS } from '../../../shared/constants.ts';
import { clearQueue } from '../../lib/offline-queue.ts';
import { queryClient } from '../../lib/query-client.ts';

/** What resumable uploads keep to resume a file (tus's fingerprints of this app's uploads). */
const TUS_FINGERPRINT = /^tus::confab-/;

/**
 * Forgets, on this device, what it kept of the attendee (decision 214): what waits to be sent,
 * the uploads it could resume, their votes and pending memories, and every answer it holds.
 * The username and the token go with the hooks that hold them, so every screen sees it.
 */
export async function forgetThisDevice(): Promise<void> {
  await clearQueue();
  try {
    for (const key of [STORAGE_KEYS.votedQuestions, STORAGE_KEYS.pendingMemories]) {
      window.localStorage.removeItem(key);
    }
    for (let index = window.localStorage.length - 1; index >= 0; index -= 1) {
      const key = window.localStorage.key(index);
      if (key && TUS_FINGERPRINT.test(key)) window.localStorage.removeItem(key);
    }
  } catch {
    // Private mode without storage: nothing was kept.
  }
  queryClient.clear();
}
