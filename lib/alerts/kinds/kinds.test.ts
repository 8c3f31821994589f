// The rule kinds' registry is complete: every kind declares each part (label, parameters' schema,
// form, description, what it watches, message, digest line), has its file and its test beside it,
// its form's defaults make valid parameters, and docs/alerts.md has its row.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALERT_KINDS, ALERT_RULE_KINDS, alertKind, alertRuleInputSchema, describeRule, RULE_KIND_FORMS, ruleParamsFromForm } from "@/lib/alerts/kinds";
import type { FormField } from "@/lib/alerts/kinds/define";

const dir = path.resolve("lib/alerts/kinds");
const defaultOf = (f: FormField): string => (f.type === "number" ? String(f.range.default) : f.default);

describe("the alert rule kinds' registry", () => {
  it("names each kind once, in a file of its name with its test beside it", () => {
    expect(new Set(ALERT_RULE_KINDS).size).toBe(ALERT_KINDS.length);
    for (const k of ALERT_KINDS) {
      const file = k.kind.replaceAll("_", "-");
      expect(fs.existsSync(path.join(dir, `${file}.ts`)), `${file}.ts`).toBe(true);
      expect(fs.existsSync(path.join(dir, `${file}.test.ts`)), `${file}.test.ts`).toBe(true);
      expect(alertKind(k.kind)).toBe(k);
    }
    expect(alertKind("bogus")).toBeUndefined();
  });

  it("every kind has a label, a schema, a form, a description, what it watches, a message and a digest line (or null)", () => {
    for (const k of ALERT_KINDS) {
      expect(k.label, k.kind).toMatch(/^[A-Z]/);
      expect(typeof k.params.safeParse, k.kind).toBe("function");
      expect(Array.isArray(k.form.fields) && k.form.note.length > 0, k.kind).toBe(true);
      expect(typeof k.describe, k.kind).toBe("function");
      expect(k.watch.type === "condition" ? typeof k.watch.evaluate : typeof k.watch.due, k.kind).toBe("function");
      if (k.watch.type === "moment") expect(k.watch.prefix, k.kind).toMatch(/^[a-z_]+$/);
      expect(typeof k.message, k.kind).toBe("function");
      expect(k.digest === null || typeof k.digest === "function", k.kind).toBe(true);
    }
  });

  it("a form filled with its defaults makes a valid rule, described in one line; the forms are plain data", () => {
    for (const k of ALERT_KINDS) {
      const defaults = new Map(k.form.fields.map((f) => [f.name, defaultOf(f)]));
      const params = ruleParamsFromForm(k.kind, (name) => defaults.get(name));
      const parsed = alertRuleInputSchema.safeParse({ kind: k.kind, params });
      expect(parsed.success, `${k.kind}: ${JSON.stringify(params)}`).toBe(true);
      expect(describeRule(k.kind, parsed.data?.params)).toMatch(/\S/);
    }
    expect(ruleParamsFromForm("bogus", () => "1")).toEqual({});
    expect(alertRuleInputSchema.safeParse({ kind: "bogus", params: {} }).success).toBe(false);
    expect(JSON.parse(JSON.stringify(RULE_KIND_FORMS))).toEqual(RULE_KIND_FORMS);
  });

  it("docs/alerts.md has a row for each kind, and none for a kind that is not here", () => {
    const doc = fs.readFileSync(path.resolve("docs/alerts.md"), "utf8");
    const table = doc.slice(doc.indexOf("<!-- alert-kinds -->"), doc.indexOf("<!-- /alert-kinds -->"));
    const rows = [...table.matchAll(/^\| `([a-z_]+)`\s*\|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...ALERT_RULE_KINDS]);
    for (const k of ALERT_KINDS) expect(table, k.kind).toContain(k.label);
  });
});
