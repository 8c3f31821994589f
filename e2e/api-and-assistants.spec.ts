// Your data, your tools: a person creates a personal access token in Settings → API, reads the
// API with it (curl-style), asks the MCP server the same questions over both transports (the
// SDK's own client at /api/mcp, and `npm run mcp` over stdio against this app) and gets the
// figures the Trends and Correlations pages show; once revoked in the UI, the token gets 401
// and the assistant is shut out.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getMetric } from "@/lib/metrics/catalog";
import { formatValue } from "@/lib/metrics/format";
import { expect, test } from "./fixtures";
import { screenshot, waitForChart } from "./dashboard-support";
import { E2E_APP_URL } from "./support/ports";

test.use({ timezoneId: "UTC" });

type Data = Record<string, any>;
async function ask(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Data> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, JSON.stringify(r.content).slice(0, 300)).toBeFalsy();
  return r.structuredContent as Data;
}

test("[API] a token made in Settings → API reads the API and the MCP server gives the pages' figures; revoked, it gets 401", async ({ page, login, appDb }) => {
  test.setTimeout(180_000);
  const person = await login({ role: "member" });

  // 1. Create a token in the UI: shown once, in the list with no use yet.
  await page.goto("/settings/api");
  const section = page.getByTestId("api-section");
  await section.getByLabel("Token name").fill("Home Assistant");
  await section.getByRole("button", { name: "Create token" }).click();
  const shown = section.getByTestId("api-token-value");
  await expect(shown).toHaveText(/^rs_pat_[A-Za-z0-9_-]{43}$/);
  const token = (await shown.textContent())!;
  await expect(section.getByTestId("api-token")).toHaveCount(1);
  await expect(section.getByTestId("api-token-usage")).toContainText("never used");
  await screenshot(section, "settings-api");
  const stored = appDb.prepare(`SELECT tokenHash, kinds FROM api_token WHERE userId = ?`).get(person.userId) as { tokenHash: string; kinds: string };
  expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.stringify(stored)).not.toContain(token.slice(7));

  // 2. Read the API with it (no cookies: a plain request context).
  const bearer = { authorization: `Bearer ${token}` };
  const api = await page.request.get(`${E2E_APP_URL}/api/v1/days/latest`, { headers: bearer });
  expect(api.status()).toBe(200);
  const latest = await api.json();
  expect(latest.metrics["sleep.score"].value).toEqual(expect.any(Number));
  const doc = await (await page.request.get(`${E2E_APP_URL}/api/v1/openapi.json`)).json();
  expect(doc.openapi).toBe("3.1.0");
  // the session cookie alone does not open the API
  const cookieOnly = await page.context().request.get(`${E2E_APP_URL}/api/v1/days/latest`);
  expect(cookieOnly.status()).toBe(401);
  await page.reload();
  await expect(section.getByTestId("api-token-usage")).toContainText("last used");

  // 3. The pages' figures: Trends (90 days, sleep score) and Correlations (steps → next night's sleep score, 1 year).
  await page.goto("/trends?m=sleep.score&range=90d");
  await waitForChart(page);
  const trendsMean = (await page.getByTestId("period-mean").first().textContent())!.trim();
  const trendsDays = (await page
    .getByTestId("trend-panel")
    .first()
    .getByText(/^\d+\/\d+ days$/)
    .textContent())!.match(/(\d+)\/(\d+) days/)!;
  await page.goto("/correlations?x=activity.steps&y=sleep.score&lag=1&range=1y");
  await expect(page.getByTestId("corr-n")).not.toHaveText("");
  await expect(page.getByTestId("corr-r")).not.toHaveText("—");
  const corrR = Number((await page.getByTestId("corr-r").textContent())!.replace("−", "-"));
  const corrN = Number(await page.getByTestId("corr-n").textContent());

  // 4. The MCP server over both transports, with the token.
  const transports = {
    http: () => new StreamableHTTPClientTransport(new URL(`${E2E_APP_URL}/api/mcp`), { requestInit: { headers: bearer } }),
    stdio: () =>
      new StdioClientTransport({
        command: "npm",
        args: ["run", "-s", "mcp"],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", RINGSIDE_URL: E2E_APP_URL, RINGSIDE_TOKEN: token },
        stderr: "pipe",
      }),
  };
  const figures: Record<string, unknown> = { page: { trendsMean, trendsN: Number(trendsDays[1]), trendsDays: Number(trendsDays[2]), corrR, corrN } };
  for (const [name, make] of Object.entries(transports)) {
    const client = new Client({ name: "e2e", version: "1" });
    await client.connect(make());
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(
        expect.arrayContaining([
          "get_metric_series",
          "correlate_metrics",
          "compare_periods",
          "compare_tagged_days",
          "summarize_day",
          "find_unusual_days",
          "list_data",
        ]),
      );
      const series = await ask(client, "get_metric_series", { metric: "sleep.score", range: "90d" });
      const corr = await ask(client, "correlate_metrics", { x: "activity.steps", y: "sleep.score", lag: 1, range: "1y" });
      figures[name] = { mean: series.mean, n: series.n, days: series.days, r: corr.r, corrN: corr.n };
      expect({ mean: formatValue(getMetric("sleep.score"), series.mean), n: series.n, days: series.days }).toEqual({
        mean: trendsMean,
        n: Number(trendsDays[1]),
        days: Number(trendsDays[2]),
      });
      expect(corr.n).toBe(corrN);
      expect(Math.abs(corr.r - corrR)).toBeLessThanOrEqual(0.0051);
    } finally {
      await client.close();
    }
  }
  console.log(`[API] figures: ${JSON.stringify(figures)}`);

  // 5. Revoke it in the UI: 401 from the API, and the MCP endpoint shuts it out.
  await page.goto("/settings/api");
  await section.getByRole("button", { name: "Revoke Home Assistant" }).click();
  await expect(section.getByTestId("api-token")).toHaveCount(0);
  const revoked = await page.request.get(`${E2E_APP_URL}/api/v1/days/latest`, { headers: bearer });
  expect(revoked.status()).toBe(401);
  expect((await revoked.json()).error.code).toBe("unauthorized");
  const shutOut = new Client({ name: "e2e", version: "1" });
  await expect(shutOut.connect(transports.http())).rejects.toThrow();
});
