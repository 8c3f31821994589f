/**
 * Answers worth keeping while a person's data stays the same (lib/db/queries/data-version.ts):
 * an answer is served again only for the data version it was computed from, and the memo
 * holds at most `max` answers for the whole process, the least recently used dropped first.
 * Its memory is bounded by `max` times the largest answer (the callers' ranges are bounded by
 * their schemas), whatever the number of people or ranges asked for.
 */
export class VersionedMemo<T> {
  private readonly entries = new Map<string, { version: number; value: T }>();

  constructor(private readonly max: number) {}

  /** The answer for `owner`'s `key` at `version`, computed when not kept (a null version: never kept). */
  async get(owner: string, version: number | null, key: string, compute: () => Promise<T>): Promise<T> {
    if (version === null) return compute();
    const id = `${owner}\u0000${key}`;
    const kept = this.entries.get(id);
    if (kept) {
      this.entries.delete(id);
      if (kept.version === version) {
        this.entries.set(id, kept); // most recently used now
        return kept.value;
      }
    }
    const value = await compute();
    this.entries.set(id, { version, value });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
