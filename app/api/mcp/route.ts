import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AppError, ERROR_STATUS, errorBody, type ErrorCode } from "@/lib/http/errors";
import { drainBody, readBody, requireJsonMediaType } from "@/lib/http/body";
import { checkSameOrigin } from "@/lib/auth/origin";
import { authenticateRequest, chargeMore, methodNotAllowed, tokenErrorResponse } from "@/lib/api/v1/handler";
import { logger } from "@/lib/log";
import { createRingsideMcpServer } from "@/lib/mcp/server";
import { readerFor } from "@/app/api/mcp/token-reader";

export const dynamic = "force-dynamic";

/** A JSON-RPC message (or batch) is small: tool arguments are a few fields. */
const MAX_BODY_BYTES = 64 * 1024;

const CODE_OF_STATUS = new Map<number, ErrorCode>(Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]));

/**
 * The transport's own refusals (a JSON-RPC error with an HTTP error status: not acceptable, not
 * a JSON-RPC message, an unsupported protocol version) in Ringside's envelope; answers with
 * status 2xx (results, and JSON-RPC errors of the protocol itself) pass as they are.
 */
async function inEnvelope(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const body = (await res.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  const message = typeof body?.error?.message === "string" ? body.error.message : "The request is not a valid MCP request.";
  return Response.json(errorBody(CODE_OF_STATUS.get(res.status) ?? "bad_request", message), { status: CODE_OF_STATUS.has(res.status) ? res.status : 400 });
}

// POST /api/mcp – the MCP server over the streamable HTTP transport (stateless: one server per
// request, answers as JSON), authenticated with a personal access token in
// `Authorization: Bearer`, rate-limited per token. A browser page of another site is refused
// (the Origin check the MCP specification asks for against DNS rebinding); clients without an
// Origin (assistants, scripts) are served. Cookies never authenticate.
export async function POST(req: Request): Promise<Response> {
  try {
    if (req.headers.has("origin") && !checkSameOrigin(req).ok) throw new AppError("forbidden", "This request comes from another site.");
    const { token } = await authenticateRequest(req);
    requireJsonMediaType(req);
    const text = (await readBody(req, { maxBytes: MAX_BODY_BYTES })).toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError("bad_request", "The body is not valid JSON.");
    }
    // a batch is as many requests as it has messages (the first was taken above): all or none
    if (Array.isArray(body)) chargeMore(token, body.length - 1);
    const server = createRingsideMcpServer(readerFor(token), {
      onError: (err) =>
        logger.error({ patId: token.tokenId, err: err instanceof Error ? { name: err.name, message: err.message } : String(err) }, "mcp tool failed"),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const res = await inEnvelope(await transport.handleRequest(req, { parsedBody: body }));
      res.headers.set("cache-control", "no-store");
      return res;
    } finally {
      await server.close();
    }
  } catch (err) {
    if (req.body && !req.body.locked) await drainBody(req.body.getReader(), 0);
    return tokenErrorResponse(err);
  }
}

// The other methods: no server-sent stream and no sessions in stateless mode
const onlyPost = methodNotAllowed("POST", "The MCP endpoint takes JSON-RPC messages by POST.");
export const GET = onlyPost;
export const PUT = onlyPost;
export const PATCH = onlyPost;
export const DELETE = onlyPost;
