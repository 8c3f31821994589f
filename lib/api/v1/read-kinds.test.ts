// A metric computed from several data kinds is readable only with all of them (the import
// issue's finding: signals.sleep_debt was readable with the `sleep` kind alone, though it is
// computed from readiness too; /api/v1/signals rightly asks for both).
import { describe, expect, it } from "vitest";
import { readCatalog, readDays, readSeries } from "@/lib/api/v1/read";
import type { TokenPrincipal } from "@/lib/auth/api-tokens";
import type { DataKind } from "@/lib/auth/api-scopes";
import { SIGNALS } from "@/lib/signals/catalog";

const principal = (kinds: DataKind[]): TokenPrincipal => ({ tokenId: "t", userId: "nobody", kinds: new Set(kinds) });
const range = { from: "2026-01-01", to: "2026-01-07" };

describe("a signal charted as a metric asks for every kind its signal reads", () => {
  it("signals.sleep_debt: refused with `sleep` alone, read with `sleep` and `daily_readiness`", async () => {
    expect(SIGNALS.sleep_debt.reads).toEqual(["sleep", "daily_readiness"]);
    await expect(readSeries(principal(["sleep"]), "signals.sleep_debt", range)).rejects.toMatchObject({ status: 403 });
    await expect(readDays(principal(["sleep"]), { ...range, metrics: ["signals.sleep_debt"] })).rejects.toMatchObject({ status: 403 });
    const only = (await readCatalog(principal(["sleep"]))).metrics.find((m) => m.id === "signals.sleep_debt");
    expect(only).toMatchObject({ readable: false });
    const both = (await readCatalog(principal(["sleep", "daily_readiness"]))).metrics.find((m) => m.id === "signals.sleep_debt");
    expect(both).toMatchObject({ readable: true });
    await expect(readSeries(principal(["sleep", "daily_readiness"]), "signals.sleep_debt", range)).resolves.toBeDefined();
  });
});
