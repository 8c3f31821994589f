// Today's app, loaded afresh for one upgraded fixture database: the environment is read when the
// modules load (lib/env.mjs), and the process keeps its connection, Prisma client and caches on
// globalThis (lib/process-singleton.ts). Between two fixtures in one test process both are let
// go: every connection closed, the process objects dropped, the modules loaded again.
import { vi } from "vitest";
import type { App } from "@/e2e/upgrade/verify";

/** Loads the routes and services the checks read through, for the database DATABASE_URL names now. */
export async function loadApp(): Promise<App> {
  return {
    routes: {
      day: await import("@/app/api/v1/days/[day]/route"),
      notes: await import("@/app/api/v1/notes/route"),
      tags: await import("@/app/api/v1/tags/route"),
      metrics: await import("@/app/api/v1/metrics/route"),
      syncStatus: await import("@/app/api/v1/sync/status/route"),
      cycle: await import("@/app/api/v1/cycle/route"),
      exportAll: await import("@/app/api/export/route"),
    },
    resources: await import("@/lib/resources"),
    settings: await import("@/lib/services/settings"),
    alerts: await import("@/lib/services/alerts"),
    alertQueries: await import("@/lib/db/queries/alerts"),
    apiTokens: await import("@/lib/db/queries/api-tokens"),
    accounts: await import("@/lib/db/queries/accounts"),
    authAdapter: await import("@/lib/services/auth/adapter"),
    invites: await import("@/lib/db/queries/invites"),
    signalSettings: await import("@/lib/db/queries/signal-settings"),
    cycle: await import("@/lib/services/cycle-entries"),
    reportLinks: await import("@/lib/services/report-links"),
    tokens: await import("@/lib/ring/tokens"),
  };
}

/** Closes what the loaded app holds open (Prisma clients, PostgreSQL pools, SQLite connections) and forgets the modules. */
export async function unloadApp(): Promise<void> {
  const objects = globalThis.ringsideProcessObjects;
  for (const held of objects?.values() ?? []) {
    const value: unknown = await Promise.resolve(held).catch(() => null);
    if (!value || typeof value !== "object") continue;
    const v = value as { $disconnect?: () => Promise<void>; end?: () => Promise<void>; totalCount?: number; close?: () => void; open?: boolean };
    if (typeof v.$disconnect === "function") await v.$disconnect();
    else if (typeof v.end === "function" && typeof v.totalCount === "number") await v.end();
    else if (typeof v.close === "function" && typeof v.open === "boolean" && v.open) v.close();
  }
  objects?.clear();
  vi.resetModules();
}
