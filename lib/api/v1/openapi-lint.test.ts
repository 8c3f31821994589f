// The read API's OpenAPI document against a standard linter: Redocly's recommended ruleset
// (@redocly/openapi-core, the engine of `redocly lint`), with every problem it reports (errors
// and warnings alike) treated as a failure.
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/v1/openapi";
import pkg from "@/package.json";

describe("the OpenAPI document", () => {
  it("lints clean with Redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(buildOpenApiDocument()), absoluteRef: "/api/v1/openapi.json", config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(", ")}`)).toEqual([]);
  });

  it("names its servers and its license (the project's, package.json)", () => {
    const doc = buildOpenApiDocument() as { servers: Array<{ url: string }>; info: { license: { name: string; url: string } } };
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(doc.servers[0]!.url).toBeTruthy();
    expect(doc.info.license).toEqual({ name: pkg.license, url: `https://spdx.org/licenses/${pkg.license}.html` });
  });
});
