import type { AppDeps } from '../deps.ts';
import { deleteMemoryRow } from './memory.repository.ts';

/**
 * Deletes a memory and its files, then tells every open gallery. Answers false when there was
 * no such memory (deleting twice is harmless).
 */
export async function deleteMemory(
  deps: Pick<AppDeps, 'db' | 'media' | 'realtime'>,
  id: string,
): Promise<boolean> {
  const keys = await deleteMemoryRow(deps.db, id);
  if (!keys) return false;
  // The row is gone first, so no client is sent to a missing file; then the bytes go.
  await Promise.all(keys.map((key) => deps.media.delete(key)));
  deps.realtime.memoryDeleted(id);
  return true;
}
