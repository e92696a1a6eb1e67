/** Something the API identifies by `_id`. */
export interface WithId {
  _id: string;
}

/** Ids are UUIDv7, so comparing them as text orders by creation time. */
export const byId = (a: WithId, b: WithId): number => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/**
 * Adds `incoming` to `current` without duplicates (the first copy of an id wins) and keeps the
 * list sorted by `compare`. Answers `current` itself when nothing is new, so screens holding it
 * do not render again.
 */
export function mergeById<T extends WithId>(
  current: readonly T[] | undefined,
  incoming: readonly T[],
  compare: (a: T, b: T) => number = byId,
): T[] {
  const base = current ?? [];
  const seen = new Set(base.map((item) => item._id));
  const fresh: T[] = [];
  for (const item of incoming) {
    if (seen.has(item._id)) continue;
    seen.add(item._id);
    fresh.push(item);
  }
  if (current && fresh.length === 0) return current as T[];
  return [...base, ...fresh].sort(compare);
}
