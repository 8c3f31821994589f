import "server-only";

// A time series' history is read in windows (lib/sync/plan.ts), each a chain of pages: a page is
// asked for with the one before's next_token, so one window has one request in flight at most.
// windowChains reads several windows at once (a chain each) and hands their pages over in order:
// every page of the first window, then every page of the next, so the engine commits them, with
// their checkpoints, in the same order as one chain would. A window's chain runs at most
// `pagesAhead` pages ahead of what was taken from it (memory stays bounded); the next window's
// chain starts when one ends, so `windowsAtOnce` windows are read at a time. No I/O of its own:
// `fetch` asks for a page. Unit-tested in window-chains.test.ts; the bench's floor reads the same way.

export type WindowChainsOptions<W, P> = {
  /** the first window, and the token to ask it with (a resumed backfill's; null from its start) */
  first: W;
  firstToken: string | null;
  /** the window after `w`, or null when `w` is the last */
  following: (w: W) => W | null;
  /** asks for a window's page (`token` null: its first) */
  fetch: (w: W, token: string | null) => Promise<P>;
  /** the page's next_token: null when it is its window's last */
  nextToken: (page: P) => string | null;
  windowsAtOnce: number;
  pagesAhead: number;
};

/** A page in order: its window, and whether it is that window's last. */
export type ChainedPage<W, P> = { window: W; page: P; last: boolean };

type Item<P> = { ok: true; page: P; last: boolean } | { ok: false; error: unknown };

/** One window's chain of pages, fetched ahead into a bounded queue. */
class Chain<W, P> {
  private readonly items: Item<P>[] = [];
  private taker: (() => void) | null = null;
  private room: (() => void) | null = null;
  private closed = false;

  constructor(
    readonly window: W,
    token: string | null,
    private readonly opts: WindowChainsOptions<W, P>,
  ) {
    void this.run(token);
  }

  private push(item: Item<P>): void {
    this.items.push(item);
    this.taker?.();
    this.taker = null;
  }

  private async run(first: string | null): Promise<void> {
    const { fetch, nextToken } = this.opts;
    const pagesAhead = Math.max(1, this.opts.pagesAhead);
    let token = first;
    try {
      for (;;) {
        while (this.items.length >= pagesAhead && !this.closed) await new Promise<void>((resolve) => (this.room = resolve));
        if (this.closed) return;
        const page = await fetch(this.window, token);
        if (this.closed) return;
        token = nextToken(page);
        this.push({ ok: true, page, last: !token });
        if (!token) return;
      }
    } catch (error) {
      // handed over when the pages before it have been taken, not before
      if (!this.closed) this.push({ ok: false, error });
    }
  }

  /** The chain's next page, in order (throws its fetch's error once the pages before it are taken). */
  async take(): Promise<{ page: P; last: boolean }> {
    while (this.items.length === 0) {
      // a take still waiting when the chains are closed (the page fetched ahead of a failed commit) ends
      if (this.closed) throw new Error("window-chains: closed");
      await new Promise<void>((resolve) => (this.taker = resolve));
    }
    const item = this.items.shift()!;
    this.room?.();
    this.room = null;
    if (!item.ok) throw item.error;
    return item;
  }

  close(): void {
    this.closed = true;
    this.room?.();
    this.room = null;
    this.taker?.();
    this.taker = null;
  }
}

/** The pages of windows read at once, in order (windowChains). */
export type WindowChains<W, P> = { take(): Promise<ChainedPage<W, P> | null>; close(): void };

/**
 * Reads windows of pages several at once and hands the pages over in order (see the file's
 * comment). `take()` gives the next page, or null after the last window's last page; an error
 * of a page's request is thrown when that page's turn comes, and then every chain stops. `close()`
 * stops them all (what is in flight is dropped when it comes back).
 */
export function windowChains<W, P>(opts: WindowChainsOptions<W, P>): WindowChains<W, P> {
  const chains: Chain<W, P>[] = [];
  let upcoming: W | null = opts.first;
  let token = opts.firstToken;
  let closed = false;
  const fill = () => {
    while (!closed && upcoming !== null && chains.length < Math.max(1, opts.windowsAtOnce)) {
      chains.push(new Chain(upcoming, token, opts));
      token = null;
      upcoming = opts.following(upcoming);
    }
  };
  const close = () => {
    closed = true;
    for (const c of chains) c.close();
  };
  return {
    async take() {
      if (closed) throw new Error("window-chains: taken from after it was closed");
      fill();
      const head = chains[0];
      if (!head) return null;
      try {
        const { page, last } = await head.take();
        if (last) {
          chains.shift();
          fill();
        }
        return { window: head.window, page, last };
      } catch (err) {
        close();
        throw err;
      }
    },
    close,
  };
}
