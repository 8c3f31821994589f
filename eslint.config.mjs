// ESLint (flat config; ESLint looks for it at the root). Next.js's rules (core web vitals,
// React, the React compiler's hooks rules, accessibility, imports) and typescript-eslint's
// recommended rules, on every source file; generated and built output is skipped. Runs in
// `npm test` (e2e/run-all.mjs) and `npm run lint`.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";
import boundaries from "eslint-plugin-boundaries";
import { LAYERS, layerRules } from "./lib/layers.mjs";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  tseslint.configs.recommended,
  {
    rules: {
      // a leading underscore marks a value left out on purpose (`const { raw: _raw, ...row } = …`)
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // metric ids are a typed union (lib/metrics/catalog.ts): a known id always has its metric
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSNonNullExpression > CallExpression[callee.name=/^(getMetric|getResource)$/]",
          message: "getMetric/getResource take a typed id and never return undefined: no `!`.",
        },
      ],
    },
  },
  {
    // Test helpers read arbitrary JSON answers (emulator, app) and index into them freely.
    files: ["**/*.test.ts", "**/*.spec.ts", "lib/test/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // No React outside app/ and components/: test helpers there may be called use…() (Playwright and Vitest fixtures).
    files: ["lib/**", "e2e/**", "prisma/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Imports point one way (lib/layers.mjs): pages → services → domain → db, shared small things
    // importable from every layer, the emulator and test support apart. Every kind of import is
    // held to it: values and types (`import type`, `export type … from`), re-exports, dynamic
    // imports, and type queries (`typeof import("…")`, added below).
    files: ["**/*.{ts,tsx,mjs}"],
    plugins: { boundaries },
    settings: {
      "boundaries/elements": LAYERS,
      "boundaries/additional-dependency-nodes": [{ selector: "TSImportType > Literal", kind: "type", name: "import-type" }],
      "boundaries/legacy-warnings": false,
    },
    rules: { "boundaries/dependencies": ["error", { default: "disallow", policies: layerRules() }] },
  },
  {
    // No product line longer than Prettier's width (.prettierrc.json): Prettier cannot break a long
    // string, class list, template literal or comment, so they are broken by hand (a sentence
    // joined from literals, classes in cn(…) groups). Strings, templates, comments and URLs count.
    files: ["lib/**", "app/**", "components/**", "proxy.ts", "instrumentation.ts"],
    ignores: ["**/*.test.{ts,tsx,mjs}", "lib/metrics/catalog-data.ts"],
    rules: {
      "max-len": [
        "error",
        {
          code: 160,
          tabWidth: 2,
          ignoreUrls: false,
          ignoreStrings: false,
          ignoreTemplateLiterals: false,
          ignoreComments: false,
          ignoreTrailingComments: false,
          ignoreRegExpLiterals: false,
        },
      ],
    },
  },
  // what git ignores (.gitignore) is not source: builds, generated code, run-time data. The bench's
  // data folders hold whole app builds (e2e/bench/.data-report/build): linting them failed lint and
  // tripled its CPU after an `npm run bench`
  globalIgnores([
    ".next/**",
    "e2e/.build/**",
    "e2e/bench/.build/**",
    "lib/generated/**",
    "node_modules/**",
    "e2e/test-results/**",
    "e2e/playwright-report/**",
    "e2e/.data/**",
    "e2e/bench/.data/**",
    "e2e/bench/.data-*/**",
    "e2e/chaos/.data/**",
    "data/**",
    "coverage/**",
    "next-env.d.ts",
    // the upgrade fixtures' makers run inside checkouts of older commits, against their code
    // (e2e/upgrade/make-fixture.mjs): today's modules are not theirs
    "e2e/upgrade/makers/**",
  ]),
]);
