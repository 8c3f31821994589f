// Validation against the ring service's published OpenAPI document (1.37), kept next to this
// file as openapi-1.37.json and read once at first use. The document is OpenAPI 3.1, whose
// schemas are JSON Schema 2020-12, so Ajv's 2020 dialect is used. Its components are
// registered as one schema resource, so "#/components/schemas/..." references resolve.
//
//   validateSchema("PublicDailySleep", doc)
//   validateResponse("/v2/usercollection/daily_sleep", "get", 200, body)
//
// Both return { ok: true } or { ok: false, errors: [...] } (at most MAX_ERRORS messages).
// Unknown schema names, paths, methods or statuses are reported as { ok: false } too.
//
// What the service serves beyond its published document (daily_cycle_phases: scope
// reproductive_cycle, fields known from one public client) is described in
// openapi-unpublished.json beside it and added to the document here, so the emulator's answers
// on those routes are held to one declared shape like every other.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

export type ValidationResult = { ok: true } | { ok: false; errors: string[] };

export type ValidateResponseOptions = {
  /**
   * List routes answer `anyOf [MultiDocumentResponse_<Model>_, MultiDocumentResponseDict]`
   * (the generic branch is what a `fields` projection returns). By default the whole anyOf
   * applies, as the document says; `typedOnly: true` drops the generic `*ResponseDict`
   * branch so that full documents are checked against their model.
   */
  typedOnly?: boolean;
};

type JsonObject = Record<string, unknown>;
type OpenApiDocument = {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
};

const DOCUMENT_FILE = new URL("./openapi-1.37.json", import.meta.url);
const UNPUBLISHED_FILE = new URL("./openapi-unpublished.json", import.meta.url);
const RESOURCE_ID = "https://ringside.invalid/openapi-1.37.json";
const MAX_ERRORS = 20;
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

let state: { doc: OpenApiDocument; ajv: Ajv2020; cache: Map<string, ValidateFunction> } | null = null;

function load() {
  if (state) return state;
  const doc = JSON.parse(readFileSync(DOCUMENT_FILE, "utf8")) as OpenApiDocument;
  const unpublished = JSON.parse(readFileSync(UNPUBLISHED_FILE, "utf8")) as OpenApiDocument;
  doc.paths = { ...doc.paths, ...unpublished.paths };
  doc.components.schemas = { ...doc.components.schemas, ...unpublished.components.schemas };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat("uuid4", UUID4);
  ajv.addSchema({ $id: RESOURCE_ID, components: doc.components });
  state = { doc, ajv, cache: new Map() };
  return state;
}

/** The parsed OpenAPI document (read-only by convention). */
export function openApiDocument(): OpenApiDocument {
  return load().doc;
}

/** Names under components.schemas. */
export function schemaNames(): string[] {
  return Object.keys(load().doc.components.schemas);
}

function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  const out: string[] = [];
  for (const e of errors ?? []) {
    if (out.length >= MAX_ERRORS) break;
    const where = e.instancePath || "(root)";
    const extra =
      e.keyword === "additionalProperties"
        ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`
        : e.keyword === "enum"
          ? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})`
          : "";
    out.push(`${where} ${e.message ?? e.keyword}${extra} [${e.schemaPath}]`);
  }
  return out.length > 0 ? out : ["invalid"];
}

function run(validate: ValidateFunction, value: unknown): ValidationResult {
  return validate(value) ? { ok: true } : { ok: false, errors: formatErrors(validate.errors) };
}

/** Validates `value` against components.schemas[schemaName]. */
export function validateSchema(schemaName: string, value: unknown): ValidationResult {
  const s = load();
  if (!Object.hasOwn(s.doc.components.schemas, schemaName)) {
    return { ok: false, errors: [`unknown schema: ${schemaName}`] };
  }
  const key = `schema:${schemaName}`;
  let validate = s.cache.get(key);
  if (!validate) {
    validate = s.ajv.compile({ $ref: `${RESOURCE_ID}#/components/schemas/${encodeURIComponent(schemaName)}` });
    s.cache.set(key, validate);
  }
  return run(validate, value);
}

/** Rewrites local "#/..." references to point into the registered components resource. */
function anchorRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(anchorRefs);
  if (node === null || typeof node !== "object") return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node as JsonObject)) {
    out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${RESOURCE_ID}${v}` : anchorRefs(v);
  }
  return out;
}

function isGenericBranch(schema: unknown): boolean {
  const ref = (schema as { $ref?: unknown } | null)?.$ref;
  return typeof ref === "string" && /ResponseDict$/.test(ref);
}

/** The path template of the document matching `path` (a template itself, or a concrete path). */
function resolvePathTemplate(doc: OpenApiDocument, path: string): string | null {
  const clean = path.split("?")[0] ?? path;
  if (Object.hasOwn(doc.paths, clean)) return clean;
  const segments = clean.split("/");
  for (const template of Object.keys(doc.paths)) {
    const t = template.split("/");
    if (t.length !== segments.length) continue;
    if (t.every((seg, i) => (seg.startsWith("{") && seg.endsWith("}") ? (segments[i] ?? "") !== "" : seg === segments[i]))) {
      return template;
    }
  }
  return null;
}

/**
 * Validates a response body against the schema the document gives for (path, method, status).
 * `path` is a path template such as "/v2/usercollection/daily_sleep/{document_id}" (a concrete
 * path is matched against the templates too). A documented status without a JSON schema
 * (e.g. 400, 401, 429 on data routes) accepts any body.
 */
export function validateResponse(path: string, method: string, status: number, body: unknown, options: ValidateResponseOptions = {}): ValidationResult {
  const s = load();
  const template = resolvePathTemplate(s.doc, path);
  if (template === null) return { ok: false, errors: [`no such path in the OpenAPI document: ${path}`] };
  const m = method.toLowerCase();
  const operation = HTTP_METHODS.has(m) ? s.doc.paths[template]?.[m] : undefined;
  if (!operation) return { ok: false, errors: [`no operation ${method.toUpperCase()} ${template}`] };
  const responses = operation.responses ?? {};
  const code = String(status);
  const response = responses[code] ?? responses[`${code[0]}XX`] ?? responses.default;
  if (!response) {
    return {
      ok: false,
      errors: [`status ${status} is not documented for ${m.toUpperCase()} ${template} (documented: ${Object.keys(responses).join(", ")})`],
    };
  }
  const schema = response.content?.["application/json"]?.schema;
  if (schema === undefined) return { ok: true };

  const key = `response:${m} ${template} ${code} ${options.typedOnly ? "typed" : "all"}`;
  let validate = s.cache.get(key);
  if (!validate) {
    let effective = schema as JsonObject;
    if (options.typedOnly && Array.isArray(effective.anyOf)) {
      const typed = (effective.anyOf as unknown[]).filter((b) => !isGenericBranch(b));
      if (typed.length > 0) effective = { ...effective, anyOf: typed };
    }
    validate = s.ajv.compile(anchorRefs(effective) as JsonObject);
    s.cache.set(key, validate);
  }
  return run(validate, body);
}
