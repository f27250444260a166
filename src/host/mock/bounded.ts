/**
 * A plugin decides how many requests it makes: every table the mock host keeps per request
 * (URLs, uploads, sessions) holds at most a fixed number of entries, the oldest let go first.
 */
export const MAX_ENTRIES = 10_000;

/** Sets `key` in an insertion-ordered map, evicting the oldest entries beyond `max`. */
export function remember<K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
  max: number = MAX_ENTRIES,
  evicted?: (value: V) => void,
): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const [oldestKey, oldest] = map.entries().next().value as [K, V];
    map.delete(oldestKey);
    evicted?.(oldest);
  }
}
