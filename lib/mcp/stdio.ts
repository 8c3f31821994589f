// `npm run mcp`: Ringside's MCP server over stdio, for an assistant on the same machine (or any
// machine that reaches Ringside). It opens no database: every tool reads the running Ringside's
// read API (/api/v1) at RINGSIDE_URL with the personal access token RINGSIDE_TOKEN, so the
// token's data kinds, rate limit and revocation hold here as everywhere. Stdout carries the
// protocol only; messages go to stderr.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
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

function fail(message: string): never {
  process.stderr.write(`ringside mcp: ${message}\n`);
  process.exit(2);
}

const parsed = envSchema.safeParse({ RINGSIDE_URL: process.env.RINGSIDE_URL || undefined, RINGSIDE_TOKEN: process.env.RINGSIDE_TOKEN || undefined });
if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; "));

const { RINGSIDE_URL, RINGSIDE_TOKEN } = parsed.data;
const server = createRingsideMcpServer(httpReader(RINGSIDE_URL, RINGSIDE_TOKEN), {
  onError: (err) => process.stderr.write(`ringside mcp: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`),
});
await server.connect(new StdioServerTransport());
process.stderr.write(`ringside mcp: serving ${new URL(RINGSIDE_URL).origin} over stdio\n`);
