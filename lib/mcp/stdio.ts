// `npm run mcp`: Ringside's MCP server over stdio, for an assistant on the same machine (or any
// machine that reaches Ringside). It opens no database: every tool reads the running Ringside's
// read API (/api/v1) at RINGSIDE_URL with the personal access token RINGSIDE_TOKEN, so the
// token's data kinds, rate limit and revocation hold here as everywhere. Stdout carries the
// protocol only; messages go to stderr. When the client goes away (its end of stdin closes, or
// stdout loses its reader) the server ends cleanly, exit code 0; SIGTERM/SIGINT end it too.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { handleSignals, onStreamClosed, writeLine } from "@/lib/process.mjs";
import { z } from "zod";
import { httpReader } from "@/lib/mcp/reader";
import { createRingsideMcpServer } from "@/lib/mcp/server";

const envSchema = z.object({
  RINGSIDE_URL: z
    .string({ message: "is required: the address of your Ringside, e.g. http://localhost:3000" })
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), { message: "must be an http(s) URL, e.g. http://localhost:3000" }),
  RINGSIDE_TOKEN: z
    .string({ message: "is required: a personal access token from Settings → API" })
    .regex(/^rs_pat_[A-Za-z0-9_-]{43}$/, { message: "must be a personal access token (rs_pat_…) from Settings → API" }),
});

const say = (message: string) => writeLine("stderr", `ringside mcp: ${message}\n`);

function fail(message: string): never {
  say(message);
  process.exit(2);
}

const parsed = envSchema.safeParse({ RINGSIDE_URL: process.env.RINGSIDE_URL || undefined, RINGSIDE_TOKEN: process.env.RINGSIDE_TOKEN || undefined });
if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; "));

const { RINGSIDE_URL, RINGSIDE_TOKEN } = parsed.data;
const server = createRingsideMcpServer(httpReader(RINGSIDE_URL, RINGSIDE_TOKEN), {
  onError: (err) => say(err instanceof Error ? `${err.name}: ${err.message}` : String(err)),
});
const { trigger } = handleSignals(async () => {
  await server.close().catch(() => undefined);
  return 0;
});
// the client is gone: its end of our stdin closed, or nobody reads our stdout any more
process.stdin.once("end", () => trigger("stdin closed"));
process.stdin.once("close", () => trigger("stdin closed"));
onStreamClosed((name) => {
  if (name === "stdout") trigger("stdout closed");
});
await server.connect(new StdioServerTransport());
say(`serving ${new URL(RINGSIDE_URL).origin} over stdio`);
