// @ts-check
// The layers of Ringside's code and which may import which: imports point one way, pages →
// services → domain → db, with the shared small things (clock, log, environment, limits, the
// error envelope, the resource registry) importable from every layer. ESLint holds every
// import to it (eslint.config.mjs, eslint-plugin-boundaries): a new wrong-way import fails
// `npm run lint` and `npm test`. docs/architecture.md draws the same map.

/** Each layer: the files it holds (first match wins) and the layers it may import, itself included. */
const LAYER_TABLE = [
  // apart: tests and their support, the demo runner, the emulator (its own program)
  { type: "test", pattern: ["**/*.test.ts", "**/*.test.tsx", "lib/test/**", "e2e/**", "prisma/**", "lib/vitest.config.ts", "eslint.config.mjs"], may: "*" },
  { type: "demo", pattern: ["lib/demo/**"], may: "*" },
  { type: "emulator", pattern: ["lib/emulator/**"], may: ["shared", "emulator"] },
  // everyone's
  {
    type: "shared",
    pattern: [
      "lib/clock.ts",
      "lib/days.ts",
      "lib/log.ts",
      "lib/env.mjs",
      "lib/secrets.ts",
      "lib/crypto.ts",
      "lib/process-singleton.ts",
      "lib/process.mjs",
      "lib/preferences.ts",
      "lib/security-headers.mjs",
      "lib/layers.mjs",
      "lib/limits/**",
      "lib/http/errors.ts",
      "lib/http/body.ts",
      // the database's health (an error that means it is away, and the outage the process remembers): what the error envelope answers 503 for
      "lib/http/outage.ts",
      "lib/load-dotenv.mjs",
      "lib/auth/issuer.mjs",
    ],
    may: ["shared"],
  },
  { type: "registry", pattern: ["lib/resources/**"], may: ["shared", "registry"] },
  // storage
  { type: "db", pattern: ["lib/db/**"], may: ["shared", "registry", "db"] },
  // domain, lowest first
  // pure maths and catalogs, safe in the browser: the metrics, and the explained signals built on them (the catalog charts a few signals as metrics)
  { type: "metrics", pattern: ["lib/metrics/**", "lib/signals/**"], may: ["shared", "registry", "metrics"] },
  // the wiring of Auth.js (its config, adapter and session) sits with the services
  {
    type: "services",
    pattern: ["lib/services/**", "lib/services/auth/config.ts", "lib/services/auth/adapter.ts", "lib/services/auth/index.ts", "lib/services/auth/session.ts"],
    may: ["shared", "registry", "db", "metrics", "auth", "ring", "schemas", "sync", "alerts", "services"],
  },
  { type: "auth", pattern: ["lib/auth/**"], may: ["shared", "registry", "db", "metrics", "auth"] },
  { type: "ring", pattern: ["lib/ring/**"], may: ["shared", "registry", "db", "metrics", "auth", "ring"] },
  // the request schemas: the boundary's vocabulary (days, ranges, names, limits)
  { type: "schemas", pattern: ["lib/schemas/requests.ts"], may: ["shared", "registry", "db", "metrics", "auth", "schemas"] },
  { type: "sync", pattern: ["lib/sync/**"], may: ["shared", "registry", "db", "metrics", "auth", "ring", "schemas", "sync"] },
  // files from elsewhere (Ringside's export, the ring maker's account export and Trends CSV) stored as a sync stores them
  { type: "import", pattern: ["lib/import/**"], may: ["shared", "registry", "db", "metrics", "auth", "ring", "schemas", "sync", "import"] },
  {
    type: "api",
    pattern: ["lib/api/**", "lib/mcp/**", "lib/alerts/actions.ts"],
    may: ["shared", "registry", "db", "metrics", "auth", "ring", "schemas", "sync", "import", "alerts", "services", "api"],
  },
  { type: "alerts", pattern: ["lib/alerts/**"], may: ["shared", "registry", "db", "metrics", "auth", "ring", "schemas", "sync", "alerts"] },
  // the process: start-up and background work
  {
    type: "server",
    pattern: ["lib/server/**", "instrumentation.ts", "proxy.ts"],
    may: ["shared", "registry", "db", "metrics", "auth", "ring", "schemas", "sync", "alerts", "services", "server"],
  },
  // pages, route handlers and server actions; components render what pages give them
  {
    type: "pages",
    pattern: ["app/**"],
    may: ["shared", "registry", "db", "metrics", "auth", "ring", "schemas", "sync", "import", "alerts", "services", "api", "components", "pages"],
  },
  // (auth's and alerts' vocabularies are pure: scope and kind labels, limits)
  { type: "components", pattern: ["components/**"], may: ["shared", "registry", "metrics", "auth", "alerts", "schemas", "api", "components"] },
];

/** Element descriptors for eslint-plugin-boundaries. */
export const LAYERS = LAYER_TABLE.map(({ type, pattern }) => ({ type, pattern, mode: "full" }));

/** One allow policy per layer (everything else is disallowed). */
export function layerRules() {
  const all = LAYER_TABLE.map((l) => l.type);
  return LAYER_TABLE.map((l) => ({ from: [l.type], allow: l.may === "*" ? all : l.may }));
}
