// Waiting in tests for something that happens in another process, a server or a background
// loop: the condition is looked at again on every turn of a short interval until it holds.
// There is no speed in it: the deadline only stops a test that would otherwise hang (a
// stopped scheduler, a dead server) with a message naming what never came, and is generous on
// purpose; how fast things happen is measured in `npm run bench`.

export type WaitOptions = {
  /** how long before giving up (default 120 s: a hang, not a slow machine) */
  timeoutMs?: number;
  /** how often the condition is looked at (default 25 ms) */
  intervalMs?: number;
};

/** Resolves with the condition's first truthy value; rejects naming `what` when it never comes. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, opts: WaitOptions = {}): Promise<NonNullable<T>> {
  const deadline = performance.now() + (opts.timeoutMs ?? 120_000);
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (performance.now() > deadline) throw new Error(`never happened: ${what} (last seen: ${JSON.stringify(last)?.slice(0, 300)})`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 25));
  }
}
