import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { windowChains, type ChainedPage } from "@/lib/sync/window-chains";

// Windows are numbers 0..n-1; window w has pages[w] pages; a page's token is "w:j" for page j+1.
type Page = { w: number; j: number; next: string | null };

function service(pages: readonly number[]) {
  const asked: Array<{ w: number; token: string | null }> = [];
  const page = (w: number, token: string | null): Page => {
    const j = token === null ? 0 : Number(token.split(":")[1]);
    if (token !== null && Number(token.split(":")[0]) !== w) throw new Error(`token ${token} asked for window ${w}`);
    return { w, j, next: j + 1 < pages[w]! ? `${w}:${j + 1}` : null };
  };
  return { asked, page };
}

const base = (n: number) => ({
  first: 0,
  firstToken: null,
  following: (w: number) => (w + 1 < n ? w + 1 : null),
  nextToken: (p: Page) => p.next,
});

async function takeAll<W, P>(chains: { take(): Promise<ChainedPage<W, P> | null> }): Promise<ChainedPage<W, P>[]> {
  const out: ChainedPage<W, P>[] = [];
  for (let p = await chains.take(); p; p = await chains.take()) out.push(p);
  return out;
}

/** A request that answers when told to. */
type Held = { w: number; token: string | null; answer(): void; fail(err: unknown): void };
function heldService(pages: readonly number[]) {
  const s = service(pages);
  const held: Held[] = [];
  const fetch = (w: number, token: string | null) =>
    new Promise<Page>((resolve, reject) => {
      s.asked.push({ w, token });
      held.push({ w, token, answer: () => resolve(s.page(w, token)), fail: reject });
    });
  /** answers every request asked so far and lets the chains react */
  const answerAll = async () => {
    for (const h of held.splice(0)) h.answer();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { ...s, held, fetch, answerAll };
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe("windowChains", () => {
  it("hands over every page of every window once, window after window, in order, however the answers come back", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        async (s, pages, windowsAtOnce, pagesAhead) => {
          const svc = service(pages);
          const inFlight = new Map<number, number>();
          let mostWindowsInFlight = 0;
          const taken = new Map<number, number>();
          let mostAhead = 0;
          const chains = windowChains({
            ...base(pages.length),
            windowsAtOnce,
            pagesAhead,
            fetch: async (w, token) => {
              svc.asked.push({ w, token });
              const j = token === null ? 0 : Number(token.split(":")[1]);
              // a page asked for is never more than pagesAhead beyond what was taken of its window
              mostAhead = Math.max(mostAhead, j - (taken.get(w) ?? 0));
              inFlight.set(w, (inFlight.get(w) ?? 0) + 1);
              expect(inFlight.get(w)).toBe(1);
              mostWindowsInFlight = Math.max(mostWindowsInFlight, inFlight.size);
              const page = await s.schedule(Promise.resolve(svc.page(w, token)), `window ${w} page ${j}`);
              inFlight.delete(w);
              return page;
            },
          });
          const all: ChainedPage<number, Page>[] = [];
          const reading = (async () => {
            for (let p = await chains.take(); p; p = await chains.take()) {
              all.push(p);
              taken.set(p.window, (taken.get(p.window) ?? 0) + 1);
            }
          })();
          await s.waitFor(reading);
          const want = pages.flatMap((n, w) => Array.from({ length: n }, (_, j) => ({ w, j, last: j === n - 1 })));
          expect(all.map((p) => ({ w: p.page.w, j: p.page.j, last: p.last }))).toEqual(want);
          expect(all.every((p) => p.window === p.page.w)).toBe(true);
          // every page asked for exactly once
          expect(svc.asked).toHaveLength(want.length);
          expect(inFlight.size).toBe(0);
          expect(mostWindowsInFlight).toBeLessThanOrEqual(windowsAtOnce);
          expect(mostAhead).toBeLessThanOrEqual(pagesAhead);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("asks for several windows at once, a resumed token for the first only, and the next window once one has ended", async () => {
    const svc = heldService([2, 2, 2, 2, 2]);
    const chains = windowChains({ ...base(5), firstToken: "0:1", windowsAtOnce: 3, pagesAhead: 4, fetch: svc.fetch });
    const first = chains.take();
    await flush();
    expect(svc.asked).toEqual([
      { w: 0, token: "0:1" },
      { w: 1, token: null },
      { w: 2, token: null },
    ]);
    await svc.answerAll();
    expect((await first)?.page).toEqual({ w: 0, j: 1, next: null });
    // window 0 ended with its one page left: window 3 starts; 1 and 2 went on to their second pages
    await flush();
    expect(svc.asked.slice(3)).toEqual([
      { w: 1, token: "1:1" },
      { w: 2, token: "2:1" },
      { w: 3, token: null },
    ]);
    await svc.answerAll();
    const rest: Page[] = [];
    for (let p = chains.take(); ; p = chains.take()) {
      await svc.answerAll();
      const got = await p;
      if (!got) break;
      rest.push(got.page);
    }
    expect(rest.map((p) => `${p.w}:${p.j}`)).toEqual(["1:0", "1:1", "2:0", "2:1", "3:0", "3:1", "4:0", "4:1"]);
  });

  it("runs a window ahead by pagesAhead pages at most until its pages are taken", async () => {
    const svc = heldService([1, 10]);
    const chains = windowChains({ ...base(2), windowsAtOnce: 2, pagesAhead: 3, fetch: svc.fetch });
    const first = chains.take();
    for (let i = 0; i < 6; i++) await svc.answerAll();
    await first;
    // window 0 taken whole; window 1 has three pages waiting and asks for no fourth
    expect(svc.asked.filter((a) => a.w === 1)).toHaveLength(3);
    expect((await chains.take())?.page.j).toBe(0);
    await svc.answerAll();
    expect(svc.asked.filter((a) => a.w === 1)).toHaveLength(4);
  });

  it("throws a failed request's error when its page's turn comes, after the pages before it, and then asks for nothing more", async () => {
    const svc = heldService([2, 2, 2]);
    const chains = windowChains({ ...base(3), windowsAtOnce: 3, pagesAhead: 2, fetch: svc.fetch });
    const first = chains.take();
    await flush();
    // window 1's first page fails while window 0 is still being read
    svc.held.find((h) => h.w === 1)!.fail(new Error("the service said 500"));
    await svc.answerAll();
    expect((await first)?.page).toMatchObject({ w: 0, j: 0 });
    const second = chains.take();
    await svc.answerAll();
    expect((await second)?.page).toMatchObject({ w: 0, j: 1 });
    await expect(chains.take()).rejects.toThrow("the service said 500");
    const asked = svc.asked.length;
    await svc.answerAll();
    await flush();
    expect(svc.asked).toHaveLength(asked);
    await expect(chains.take()).rejects.toThrow(/closed/);
  });

  it("ends a take still waiting when closed (the page asked for ahead of a commit that failed)", async () => {
    const svc = heldService([3]);
    const chains = windowChains({ ...base(1), windowsAtOnce: 1, pagesAhead: 1, fetch: svc.fetch });
    const waiting = chains.take();
    await flush();
    chains.close();
    await expect(waiting).rejects.toThrow(/closed/);
  });

  it("asks for nothing more once closed; what was in flight is dropped", async () => {
    const svc = heldService([3, 3, 3]);
    const chains = windowChains({ ...base(3), windowsAtOnce: 2, pagesAhead: 3, fetch: svc.fetch });
    const first = chains.take();
    await svc.answerAll();
    await first;
    chains.close();
    const asked = svc.asked.length;
    await svc.answerAll();
    await flush();
    expect(svc.asked).toHaveLength(asked);
  });

  it("ends at once with no windows' pages left to take", async () => {
    const svc = heldService([1]);
    const chains = windowChains({ ...base(1), windowsAtOnce: 4, pagesAhead: 2, fetch: svc.fetch });
    const pages = takeAll(chains);
    await svc.answerAll();
    expect((await pages).map((p) => p.last)).toEqual([true]);
  });
});
