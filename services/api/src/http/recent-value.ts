/**
 * A value that every request needs and that rarely changes (a portal-wide setting, the last sync
 * time): read at most once per `reuseMs`, shared by the requests in between. `set` records a value
 * this process knows to be current (it just wrote it). A failed read is not kept.
 */
export interface RecentValue<T> {
  get(): Promise<T>;
  set(value: T): void;
}

export function recentValue<T>(
  reuseMs: number,
  read: () => Promise<T>,
  now: () => number = Date.now,
): RecentValue<T> {
  let recent: { value: Promise<T>; readAt: number } | null = null;
  return {
    get() {
      if (recent && now() - recent.readAt < reuseMs) return recent.value;
      const entry = { value: read(), readAt: now() };
      recent = entry;
      entry.value.catch(() => {
        if (recent === entry) recent = null;
      });
      return entry.value;
    },
    set(value) {
      recent = { value: Promise.resolve(value), readAt: now() };
    },
  };
}
