// Prisma's WebAssembly schema engine (@prisma/schema-engine-wasm), loaded once per process: the
// offline stand-in for the native engine (prisma/schema-engine.mjs) answers the Prisma CLI with it,
// and the drift check (prisma/schema-shape.ts) asks it in-process for a schema's SQL from nothing,
// the step every migration is written with, without a CLI process of its own.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** @type {Promise<any> | undefined} */
let runtime;

/** The engine's module with its WebAssembly instance started (once per process). */
export function loadSchemaEngineRuntime() {
  runtime ??= (async () => {
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const wasmPath = path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");
    const instance = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(wasmPath)), { "./schema_engine_bg.js": bg });
    bg.__wbg_set_wasm(instance.exports);
    /** @type {any} */ (instance.exports).__wbindgen_start();
    return bg;
  })();
  return runtime;
}

/**
 * The SQL that makes a schema from nothing, in the dialect of its provider: what
 * `prisma migrate diff --from-empty --to-schema <file> --script` prints. No database is opened.
 * @param {string} schemaText
 * @returns {Promise<string>}
 */
export async function scriptFromEmpty(schemaText) {
  const bg = await loadSchemaEngineRuntime();
  const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
  const { bindMigrationAwareSqlAdapterFactory } = await import("@prisma/driver-adapter-utils");
  // an adapter the engine requires, never connected for a diff from nothing
  const factory = new PrismaBetterSqlite3({ url: ":memory:" });
  const adapter = bindMigrationAwareSqlAdapterFactory({
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => factory.connect(),
    connectToShadowDb: () => factory.connectToShadowDb(),
  });
  const file = "schema.prisma";
  const engine = await bg.SchemaEngine.new({ datamodels: [[file, schemaText]] }, () => {}, adapter);
  try {
    const result = await engine.diff({
      from: { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [{ path: file, content: schemaText }] },
      script: true,
      shadowDatabaseUrl: null,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return String(result.stdout ?? "");
  } finally {
    engine.free();
  }
}
