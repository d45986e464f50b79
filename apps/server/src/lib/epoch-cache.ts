/**
 * A bounded in-memory cache whose entries are valid while the tables they were read from have not been written
 * (`TableChanges.epoch`, db/table-changes.ts) and, optionally, until a time. The epoch is taken before the value is
 * built, so a write that lands while building leaves the entry stale at once. A full cache is emptied rather than
 * ordered: entries are cheap to rebuild and the bound only stops unbounded growth.
 */
export function epochCache<K, V>(max: number) {
  const entries = new Map<K, { epoch: number; until: number; value: Promise<V> }>();
  return {
    get(key: K, epoch: number, build: () => Promise<V>, untilOf?: (value: V) => number): Promise<V> {
      const hit = entries.get(key);
      if (hit && hit.epoch === epoch && hit.until > Date.now()) return hit.value;
      if (entries.size >= max) entries.clear();
      const entry = { epoch, until: Infinity, value: build() };
      entries.set(key, entry);
      entry.value.then(
        (v) => { if (untilOf) entry.until = untilOf(v); },
        // a failed build is not kept
        () => { if (entries.get(key) === entry) entries.delete(key); },
      );
      return entry.value;
    },
  };
}
