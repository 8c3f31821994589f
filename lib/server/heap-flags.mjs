// @ts-check
// The V8 heap flags `npm start` gives the server (lib/server/start.mjs): pure, so they are
// unit-tested (heap-flags.test.ts). Why these sizes: the comment above their use in start.mjs.

/** A memory ceiling (MB) under which the server counts as a small box. */
export const SMALL_BOX_CEILING_MB = 512;

/**
 * The flags for a server with `nodeOptions` (NODE_OPTIONS, whose own sizes win) under a memory
 * ceiling of `ceilingMb` (0: none known).
 * @param {{ nodeOptions: string, ceilingMb: number }} opts
 * @returns {{ smallBox: boolean, flags: string[] }}
 */
export function heapFlags({ nodeOptions, ceilingMb }) {
  const smallBox = ceilingMb > 0 && ceilingMb < SMALL_BOX_CEILING_MB;
  return {
    smallBox,
    flags: [
      ...(nodeOptions.includes("--max-old-space-size") ? [] : [`--max-old-space-size=${smallBox ? Math.max(96, Math.floor(ceilingMb / 2)) : 256}`]),
      ...(nodeOptions.includes("--max-semi-space-size") ? [] : [`--max-semi-space-size=${smallBox ? 4 : 16}`]),
    ],
  };
}
