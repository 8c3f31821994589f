import { withRoute } from "@/lib/api/handler";
import { READ_ONLY } from "@/lib/api/v1/handler";
import { buildOpenApiDocument } from "@/lib/api/v1/openapi";

let document: Record<string, unknown> | null = null;

// GET /api/v1/openapi.json – the read API's OpenAPI 3.1 document (public: it describes the API,
// it holds no one's data)
export const GET = withRoute(async () => {
  document ??= buildOpenApiDocument();
  return Response.json(document, { headers: { "cache-control": "public, max-age=300" } });
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
