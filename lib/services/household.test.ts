// The owner removes a member (the audit: the owner could not remove a member, nor that member's
// tokens, channels and sessions): everything of theirs goes, the owner's and others' stay.
import { beforeAll, describe, expect, it } from "vitest";
import { sqlRun, sqlValue } from "@/lib/test/sql";
import { DATA_KINDS } from "@/lib/auth/api-scopes";

const now = new Date().toISOString();
async function person(id: string, role: "owner" | "member"): Promise<void> {
  await sqlRun(
    `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, ?, 'metric', 'system', ?, ?)`,
    id,
    `${id}@example.test`,
    role,
    now,
    now,
  );
  await sqlRun(
    `INSERT INTO "Session" (id, sessionToken, userId, expires) VALUES (?, ?, ?, ?)`,
    `s-${id}`,
    `session-${id}`,
    id,
    new Date(Date.parse(now) + 86_400_000).toISOString(),
  );
}
const count = async (table: string, userId: string) => Number(await sqlValue(`SELECT COUNT(*) FROM ${table} WHERE userId = ?`, userId));

const tokens: Record<string, string> = {};

beforeAll(async () => {
  await person("owner", "owner");
  await person("member", "member");
  await person("other", "member");
  const { createApiToken } = await import("@/lib/services/api-tokens");
  const { addAlertChannel } = await import("@/lib/services/alerts");
  const { setDayNote } = await import("@/lib/db/queries/notes");
  for (const id of ["owner", "member", "other"]) {
    tokens[id] = (await createApiToken(id, { name: "t", kinds: DATA_KINDS })).token;
    await addAlertChannel(id, { kind: "webhook", url: "https://hooks.example.test/x" });
    await setDayNote({ userId: id, day: "2026-11-20", text: "note", tags: ["t"] });
  }
});

describe("removing a member", () => {
  it("only the owner can, never themselves", async () => {
    const { removeMember } = await import("@/lib/services/household");
    await expect(removeMember("other", "member")).rejects.toMatchObject({ code: "forbidden" });
    await expect(removeMember("owner", "owner")).rejects.toMatchObject({ code: "unprocessable_entity" });
    await expect(removeMember("owner", "nobody")).rejects.toMatchObject({ code: "not_found" });
  });

  it("deletes the member's data, API tokens, alert channels and sessions; their token answers 401 at once", async () => {
    const { removeMember } = await import("@/lib/services/household");
    const { requireApiToken } = await import("@/lib/auth/api-tokens");
    const bearer = (t: string) => new Request("http://localhost/api/v1/tags", { headers: { authorization: `Bearer ${t}` } });
    await expect(requireApiToken(bearer(tokens.member!))).resolves.toMatchObject({ userId: "member" });
    const result = await removeMember("owner", "member");
    expect(result.apiTokens).toBe(1);
    for (const table of ["api_token", "alert_channel", "day_note", '"Session"']) expect({ table, n: await count(table, "member") }).toEqual({ table, n: 0 });
    expect(await sqlValue(`SELECT COUNT(*) FROM "User" WHERE id = 'member'`)).toBe(0);
    await expect(requireApiToken(bearer(tokens.member!))).rejects.toMatchObject({ code: "unauthorized" });
    // the others keep everything
    for (const id of ["owner", "other"]) {
      for (const table of ["api_token", "alert_channel", "day_note", '"Session"'])
        expect({ id, table, n: await count(table, id) }).toEqual({ id, table, n: 1 });
      await expect(requireApiToken(bearer(tokens[id]!))).resolves.toMatchObject({ userId: id });
    }
  });
});
