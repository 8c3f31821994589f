import "server-only";
import { z } from "zod";
import { RESOURCES, type ResourceName, type ResourceOf } from "@/lib/resources";
import type { ColumnDef, SchemaKit } from "@/lib/resources/define";

// zod schemas for every payload Ringside reads from the ring service, after the OpenAPI
// document (reference/openapi-1.37.json). The documents' schemas are declared in the resource
// registry (lib/resources, one entry per resource) and built here with zod. Tolerant on
// purpose (ARCHITECTURE "client parsers must accept what it allows"): unknown keys pass
// through (looseObject), optional keys may be missing or null (nullish). Fields the spec marks required stay required, except where
// the real service is known to differ (ring-api-facts §3): cardiovascular age without `id`,
// readiness without `sleep_regularity`. Time series inside documents (`met`, `heart_rate`,
// `hrv`) are checked for shape but not item by item: Ringside keeps them in `raw` only.

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day YYYY-MM-DD");
const text = z.string();
const num = z.number();
const optNum = num.nullish();

/**
 * PublicSample, checked loosely (items are not stored in columns): `items` must be an array,
 * passed through as it is (z.array would copy a day's 1,440 MET values per document).
 */
const ringSampleSchema = z.looseObject({
  interval: num,
  items: z.custom<unknown[]>((v) => Array.isArray(v), { message: "must be an array" }),
  timestamp: text,
});

/** The building blocks each registry entry's `schema` is written with. */
const KIT: SchemaKit = {
  z,
  day: isoDay,
  id: text.min(1),
  num,
  optNum,
  text,
  optText: text.nullish(),
  // A field of one of the closed lists (RING_ENUMS): any string (bounded), or null/missing.
  openEnum: z.string().max(200).nullish(),
  sample: ringSampleSchema,
  optNumbers: <const K extends string>(names: readonly K[]) => z.looseObject(Object.fromEntries(names.map((n) => [n, optNum])) as { [P in K]: typeof optNum }),
  document: <S extends z.ZodRawShape>(fields: S) => z.looseObject({ id: text.min(1), day: isoDay, ...fields }),
};

type SchemaOf<N extends ResourceName> = ReturnType<ResourceOf<N>["schema"]>;

/** The zod schema of one document of every resource Ringside stores (lib/resources). */
export const RING_DOCUMENT_SCHEMAS = Object.fromEntries(RESOURCES.map((r) => [r.name, r.schema(KIT)])) as {
  [N in ResourceName]: SchemaOf<N>;
};

export type RingDocumentOf<N extends ResourceName> = z.infer<SchemaOf<N>>;

/** PersonalInfoResponse (a bare object, not a list). */
export const ringPersonalInfoSchema = RING_DOCUMENT_SCHEMAS.personal_info;
export type RingPersonalInfo = RingDocumentOf<"personal_info">;

/**
 * The closed lists of the spec that Ringside reads (collection → field → known values), from
 * the registry's columns with `categories`. The service adds values over time (facts §3), so a
 * value not listed here never sets a document aside: the schema accepts any string for these
 * fields, lib/sync/map.ts stores an unknown one as null (the raw JSON keeps it) and it is logged
 * once per process.
 */
export const RING_ENUMS: Partial<Record<ResourceName, Record<string, readonly string[]>>> = Object.fromEntries(
  RESOURCES.flatMap((r) => {
    const lists = r.columns.flatMap((c: ColumnDef) => (c.categories ? [[c.name, c.categories.map((x) => x.value)] as const] : []));
    return lists.length > 0 ? [[r.name, Object.fromEntries(lists)] as const] : [];
  }),
);

/**
 * The list wrapper (MultiDocumentResponse_<Model>_ or MultiDocumentResponseDict). Documents
 * are validated one by one afterwards, so one bad document never loses a whole page.
 */
export const ringListPageSchema = z.looseObject({
  data: z.array(z.unknown()),
  next_token: z.string().nullish(),
});

// ---------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------

export const WEBHOOK_OPERATIONS = ["create", "update", "delete"] as const;
export const webhookOperationSchema = z.enum(WEBHOOK_OPERATIONS);
export type WebhookOperation = z.infer<typeof webhookOperationSchema>;

/**
 * A notification POSTed to our callback (facts §6.3). object_id/event_time may be absent.
 * event_type stays a closed list (unlike the documents' lists): it is the protocol's verb, an
 * unknown one cannot be acted on, and the trailing-window poll picks up whatever it was about.
 */
export const ringWebhookNotificationSchema = z.looseObject({
  event_type: webhookOperationSchema,
  data_type: z.string().min(1).max(64),
  object_id: z.string().min(1).max(256).nullish(),
  event_time: z.string().max(64).nullish(),
  user_id: z.string().min(1).max(256),
});

/** WebhookSubscriptionModel */
export const ringWebhookSubscriptionSchema = z.looseObject({
  id: z.string().min(1),
  callback_url: z.string(),
  event_type: z.string(),
  data_type: z.string(),
  expiration_time: z.string(),
});
export type RingWebhookSubscription = z.infer<typeof ringWebhookSubscriptionSchema>;

/** GET /v2/webhook/subscription answers a bare array (facts §2.1). */
export const ringWebhookSubscriptionListSchema = z.array(ringWebhookSubscriptionSchema);

/** The `detail` of an error body: FastAPI string, HTTPValidationError list, or RFC 7807. */
export const ringErrorBodySchema = z.looseObject({
  detail: z.union([z.string(), z.array(z.unknown())]).nullish(),
  title: z.string().nullish(),
});
