/**
 * Sets `key` in `map` as its most recently used entry, dropping the least recently used one when
 * the map would hold more than `max`: a bounded cache kept in a `Map`'s insertion order.
 */
export function keepRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.delete(key) && map.size >= max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
