// Runs before each test file (own process per file: pool "forks").
// Every test file gets its own fresh SQLite database with all migrations applied, so the
// app's modules (which read DATABASE_URL at import) never touch a real data directory.
import fs from "node:fs";
import { afterAll } from "vitest";
import { createTestDatabase } from "@/lib/test/database";

const { url, dir } = createTestDatabase();
// the file's last hook (hooks run as a stack): its database goes with it, so runs leave no
// directory behind (about 580 a run, 1 MB each, before)
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
process.env.DATABASE_URL = url;
process.env.DATA_DIR = dir;
process.env.TOKEN_ENCRYPTION_KEY ??= "0".repeat(63) + "1";
process.env.AUTH_SECRET ??= "test-auth-secret-0123456789abcdef";
process.env.WEBHOOK_VERIFICATION_TOKEN ??= "test-webhook-verification-token";
// The emulator's demo client (lib/emulator/store.ts), which unit and integration tests talk to:
// configured explicitly, since outside demo mode there is no default client secret.
process.env.RING_CLIENT_SECRET ??= "ringside-demo-secret";
