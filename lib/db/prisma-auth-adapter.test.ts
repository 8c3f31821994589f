// @auth/prisma-adapter (2.11.3) on Prisma Client at run time (lib/db/prisma.ts), on both databases:
// what it does on Ringside's schema as it is, and what it does not do, which Ringside's wrapper
// (lib/services/auth/adapter.ts) must keep doing when it moves onto it. Groundwork for issue 42:
// docs/decisions/0031-prisma-client-at-run-time.md.
import { PrismaAdapter } from "@auth/prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresClient, sqliteClient, type ProcessDb } from "@/lib/db/prisma";
import { sqliteFile } from "@/lib/db/sqlite.mjs";
import { useMigratedPostgres } from "@/lib/test/postgres";

const pg = useMigratedPostgres("auth_prisma_adapter");

describe.each([
  { name: "sqlite", make: () => sqliteClient(sqliteFile(process.env.DATABASE_URL!)) },
  { name: "postgresql", make: () => postgresClient(async () => pg.otherProcess()) },
])("@auth/prisma-adapter on $name", ({ make }) => {
  let db: ProcessDb;
  beforeAll(() => {
    db = make();
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("a person, their ring account and a database session: created, found, renewed and ended through the official adapter", async () => {
    const adapter = PrismaAdapter(db);
    const user = await adapter.createUser!({ id: "ignored", name: "Ada", email: "ada@example.test", emailVerified: null });
    expect(user).toMatchObject({ name: "Ada", email: "ada@example.test", role: "member", dataVersion: 0 });
    expect(await adapter.getUser!(user.id)).toMatchObject({ id: user.id });
    expect(await adapter.getUserByEmail!("ada@example.test")).toMatchObject({ id: user.id });

    await adapter.linkAccount!({ userId: user.id, type: "oauth", provider: "ring", providerAccountId: "ring-ada", access_token: "plain-access" });
    expect(await adapter.getUserByAccount!({ provider: "ring", providerAccountId: "ring-ada" })).toMatchObject({ id: user.id });

    const expires = new Date("2030-01-01T00:00:00.000Z");
    await adapter.createSession!({ sessionToken: "s-ada", userId: user.id, expires });
    const found = await adapter.getSessionAndUser!("s-ada");
    expect(found?.session).toMatchObject({ sessionToken: "s-ada", userId: user.id, expires });
    expect(found?.user).toMatchObject({ id: user.id, email: "ada@example.test" });
    const later = new Date("2030-02-01T00:00:00.000Z");
    expect(await adapter.updateSession!({ sessionToken: "s-ada", expires: later })).toMatchObject({ expires: later });
    await adapter.deleteSession!("s-ada");
    expect(await adapter.getSessionAndUser!("s-ada")).toBeNull();
    await adapter.unlinkAccount!({ provider: "ring", providerAccountId: "ring-ada" });
    expect(await adapter.getUserByAccount!({ provider: "ring", providerAccountId: "ring-ada" })).toBeNull();
  });

  it("what the wrapper must keep doing: tokens are stored as given, a person without e-mail comes back with null, a session already gone throws", async () => {
    const adapter = PrismaAdapter(db);
    const user = await adapter.createUser!({ id: "ignored", name: "Bo", email: null as unknown as string, emailVerified: null });
    await adapter.linkAccount!({ userId: user.id, type: "oauth", provider: "ring", providerAccountId: "ring-bo", access_token: "plain-access" });
    // in plain text: the wrapper encrypts before linkAccount (docs/decisions/0012-tokens-encrypted-at-rest.md)
    expect((await db.account.findFirstOrThrow({ where: { userId: user.id } })).access_token).toBe("plain-access");
    await adapter.createSession!({ sessionToken: "s-bo", userId: user.id, expires: new Date("2030-01-01T00:00:00.000Z") });
    // Auth.js's user has a string e-mail: the wrapper gives it one
    expect((await adapter.getSessionAndUser!("s-bo"))?.user.email).toBeNull();
    await adapter.deleteSession!("s-bo");
    // a session a disconnect removed meanwhile: the official adapter throws (Prisma's P2025), the wrapper does nothing
    await expect(Promise.resolve(adapter.deleteSession!("s-bo"))).rejects.toMatchObject({ code: "P2025" });
  });
});
