// A separate process that reads one person's ring data many times at once through the app's
// RingClient (lib/ring/client.ts → lib/ring/tokens.ts), sharing the SQLite file with the test
// process: the token race across processes. Started by token-race.test.ts with
//   node --conditions=react-server --import tsx e2e/chaos/support/token-reader.ts
// It prints "ready", waits for a line on stdin, fires READS requests at once and prints one
// JSON line with the outcome.
import readline from "node:readline";
import { RingClient } from "@/lib/ring/client";
import type { RingCollection } from "@/lib/resources";

const reads = Number(process.env.READS ?? "50");
const accountId = process.env.ACCOUNT_ID ?? "";
const documentIds = JSON.parse(process.env.DOCUMENT_IDS ?? "[]") as Array<{ collection: RingCollection; id: string }>;

async function main(): Promise<void> {
  const rl = readline.createInterface({ input: process.stdin });
  const go = new Promise<void>((resolve) => rl.once("line", () => resolve()));
  process.stdout.write("ready\n");
  await go;
  rl.close();
  const client = new RingClient({ accountId, backoff: { baseMs: 20, maxMs: 200, maxRetries: 3 } });
  const results = await Promise.allSettled(
    Array.from({ length: reads }, (_, i) => {
      const doc = documentIds[i % Math.max(1, documentIds.length)];
      if (i % 3 === 0 || !doc) return client.personalInfo().then(() => "ok");
      return client.getDocument(doc.collection, doc.id).then((d) => (d ? "ok" : "missing"));
    }),
  );
  const ok = results.filter((r) => r.status === "fulfilled" && r.value === "ok").length;
  const failures = results
    .map((r) =>
      r.status === "rejected" ? (r.reason instanceof Error ? `${r.reason.name}: ${r.reason.message}` : String(r.reason)) : r.value === "ok" ? null : r.value,
    )
    .filter((x): x is string => x !== null);
  process.stdout.write(`${JSON.stringify({ ok, failures: failures.slice(0, 5), failed: failures.length })}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stdout.write(`${JSON.stringify({ ok: 0, failed: reads, failures: [String(err)] })}\n`);
    process.exit(1);
  },
);
