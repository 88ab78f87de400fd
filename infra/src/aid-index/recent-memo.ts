/**
 * A bounded memo that keeps what is used: two generations, the older one dropped when the newer
 * fills, and an entry read from the older moved into the newer. A sync meets the same few thousand
 * measures millions of times among millions of project titles seen once or twice; clearing the whole
 * memo when it filled (as before) lost the measures with them every 200,000 new titles.
 */
export class RecentMemo<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();

  constructor(private readonly generationSize: number) {}

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const older = this.previous.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: K, value: V): void {
    if (this.current.size >= this.generationSize) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }

  /** Entries held: at most twice the generation size. */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  clear(): void {
    this.current.clear();
    this.previous.clear();
  }
}
