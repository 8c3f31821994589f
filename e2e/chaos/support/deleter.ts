// A separate process that deletes a person's data as the app does, sharing the database with the
// test process: a delete served by another process, which no abort of the test process's syncs
// reaches (only the fence keeps what they have in flight out). Started by delete-race.test.ts with
//   node --conditions=react-server --import tsx e2e/chaos/support/deleter.ts
// OP is "delete" ("Delete all my data"), "disconnect" (with the data deleted) or "remove" (the
// owner OWNER_ID removes USER_ID); it prints one JSON line and exits.
import { deleteAllMyData } from "@/lib/services/people";
import { disconnectRingAccount, removeMember } from "@/lib/services/household";
import { forgetImportsOf } from "@/lib/import/status";

const op = process.env.OP;
const userId = process.env.USER_ID ?? "";

async function main(): Promise<unknown> {
  if (op === "delete") return deleteAllMyData(userId);
  if (op === "disconnect") return disconnectRingAccount(userId, "delete");
  if (op === "remove") return removeMember(process.env.OWNER_ID ?? "", userId, { beforeDelete: forgetImportsOf });
  throw new Error(`unknown OP ${String(op)}`);
}

main().then(
  (result) => {
    process.stdout.write(`${JSON.stringify({ ok: true, result })}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stdout.write(`${JSON.stringify({ ok: false, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) })}\n`);
    process.exit(1);
  },
);
