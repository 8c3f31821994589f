// @ts-check
// The layers of Ringside's code and which may import which. One layer per folder: the map names
// folders (a folder's files and everything under it), never single files, so where a file sits
// says what it may import. Imports point one way, down the stack: pages → services → domain → db,
// with the shared small things (clock, days, log, environment, limits, the HTTP envelope) importable
// from every layer. ESLint holds every import to it, type-only imports included (eslint.config.mjs,
// eslint-plugin-boundaries): a wrong-way import fails `npm run lint` and `npm test`, and
// lib/layers.test.ts holds the map to the folders. docs/architecture.md draws the same map.

/**
 * The stack, lowest first: each layer's folders, and why it stands where it does. A layer may
 * import itself and every layer below it; nothing imports a layer above it.
 * @type {ReadonlyArray<{ type: string; folders: readonly string[] }>}
 */
const STACK = [
  // everyone's: the lib folder's own files (clock, days, log, environment, secrets, process, preferences,
  // security headers, this map), limits (backoff, token buckets, the read API's limiter), and the
  // HTTP pieces every layer answers with (the error envelope, capped body reading, the database's health)
  { type: "shared", folders: ["lib/*.{ts,mjs}", "lib/limits/**", "lib/http/**"] },
  // the resource registry: pure data the rest derives from
  { type: "registry", folders: ["lib/resources/**"] },
  // storage: the connection, the one way in, the queries
  { type: "db", folders: ["lib/db/**"] },
  // domain, lowest first. Pure maths and catalogs, safe in the browser: the metrics, then the
  // explained signals built on them
  { type: "metrics", folders: ["lib/metrics/**"] },
  { type: "signals", folders: ["lib/signals/**"] },
  // scopes, origin, the identity provider, invites, setup code, admission
  { type: "auth", folders: ["lib/auth/**"] },
  // the ring service's client, tokens, errors, zod schemas
  { type: "ring", folders: ["lib/ring/**"] },
  // the request schemas: the boundary's vocabulary (days, ranges, names, limits)
  { type: "schemas", folders: ["lib/schemas/**"] },
  { type: "sync", folders: ["lib/sync/**"] },
  // files from elsewhere (Ringside's export, the ring maker's account export and Trends CSV) stored as a sync stores them
  { type: "import", folders: ["lib/import/**"] },
  { type: "alerts", folders: ["lib/alerts/**"] },
  // Home Assistant over MQTT: the entities, their discovery configs and states (pure), the broker's connection
  { type: "home-assistant", folders: ["lib/home-assistant/**"] },
  // what the pages show, and Auth.js's wiring (lib/services/auth)
  { type: "services", folders: ["lib/services/**"] },
  // route and action wrappers, the dashboard API's contract, the read API
  { type: "api", folders: ["lib/api/**"] },
  // the MCP server, on the read API (in-process or over HTTP)
  { type: "mcp", folders: ["lib/mcp/**"] },
  // the process: start-up and background work
  { type: "server", folders: ["lib/server/**"] },
  // pages, route handlers and server actions
  { type: "pages", folders: ["app/**"] },
  // the files a tool looks for at the root (instrumentation.ts, proxy.ts, next.config.mjs, the configs)
  { type: "root", folders: ["*.{ts,mjs}"] },
];

/**
 * Apart from the stack: what each may import is its own list.
 * @type {ReadonlyArray<{ type: string; folders: readonly string[]; may: readonly string[] | "*" }>}
 */
const APART = [
  // tests (beside their code, by name) and their support, the generators; the demo runner
  { type: "test", folders: ["**/*.test.ts", "**/*.test.tsx", "**/vitest.config.ts", "lib/test/**", "e2e/**", "prisma/**"], may: "*" },
  { type: "demo", folders: ["lib/demo/**"], may: "*" },
  // the ring service's emulator: its own program, never imported by the app
  { type: "emulator", folders: ["lib/emulator/**"], may: ["shared", "emulator"] },
  // components render what pages give them: the pure vocabularies, the contract's types, never db, sync or services
  { type: "components", folders: ["components/**"], may: ["shared", "registry", "metrics", "signals", "auth", "schemas", "alerts", "api", "components"] },
];

const STACK_TYPES = STACK.map((l) => l.type);

/** Each layer, apart ones first (a test beside its code is a test): its folders and the layers it may import. */
export const LAYER_TABLE = [
  ...APART.map((l) => ({ type: l.type, folders: l.folders, may: l.may === "*" ? [...STACK_TYPES, ...APART.map((a) => a.type)] : l.may })),
  ...STACK.map((l, i) => ({
    type: l.type,
    folders: l.folders,
    may: [...STACK_TYPES.slice(0, i + 1), ...(i >= STACK_TYPES.indexOf("pages") ? ["components"] : [])],
  })),
];

/** Element descriptors for eslint-plugin-boundaries (first match wins). */
export const LAYERS = LAYER_TABLE.map(({ type, folders }) => ({ type, pattern: [...folders], mode: "full" }));

/** One allow policy per layer (everything else is disallowed). */
export function layerRules() {
  return LAYER_TABLE.map((l) => ({ from: [l.type], allow: [...l.may] }));
}
