// Coverage table of the conformance suite: every row of the interface spec's tables in
// sections 3, 4, 5, 7 and 8, the ARCHITECTURE "Emulator contract" decisions and the
// ring-api-facts rows of §2.4, §5, §6 and the Addendum of 2026-11-23 (the newer identity
// provider, beside the legacy one), each with the full names ("describe > it") of the
// tests that cover it. coverage.test.ts checks every name against the tests Vitest actually
// registers, and every registered test against this table.
import { DAILY, DAILY_COLLECTIONS, SINGLE_DOC_COLLECTIONS } from "@/e2e/conformance/support";

export type SpecRow = {
  /** Stable row id: document, section, row. */
  id: string;
  /** The row as the spec states it (short). */
  row: string;
  /** Full test names ("describe > it") that cover the row. */
  tests: string[];
  /** Only for rows that cannot be exercised against an emulator: why. */
  untestable?: string;
};

const t = (suite: string, test: string) => `${suite} > ${test}`;

// ---- suites (describe titles) -----------------------------------------------------------
const AUTH1 = "spec §5.2 step 1 — GET /oauth/authorize";
const AUTH2 = "spec §5.2 step 2 — redirect";
const GEN = "spec §5.1 — authentication, general";
const IMPL = "spec §5.3 — client-side only flow (implicit)";
const CONSENT = "emulator contract — consent page and clients";
const LIFE = "spec §3 — credential lifecycle";
const TOK = "spec §5.2 step 3 — POST /oauth/token";
const TOKRES = "spec §5.2 step 3 — token response";
const REFRESH = "spec §5.2 step 4 — refresh";
const REVOKE = "spec §5.4 — revocation";
const SBL = "spec §4.1 — sandbox list endpoints GET /v2/sandbox/usercollection/<collection>";
const SBD = "spec §4.2 — sandbox single-document endpoints GET /v2/sandbox/usercollection/<collection>/{document_id}";
const REAL = "spec §4.3 — non-sandbox routes /v2/usercollection/...";
const PAGE = "spec §4.1 next_token — pagination (facts §2.2, page size RING_EMULATOR_PAGE_SIZE=7)";
const BEARER = "spec §5.1 — bearer tokens on data endpoints";
const ERR = "spec §7 — errors";
const PI = "emulator contract — personal_info and scopes";
const WIN = "facts §2.4 — per-endpoint date windows (/v2/usercollection)";
const SBWIN = "facts §2.4 — sandbox (all collections): end-exclusive everywhere";
const LIM = "spec §8 — limits";
const FAULT = "emulator contract — POST /_emulator/faults";
const SUB = "facts §6.1 — subscription routes (x-client-id and x-client-secret)";
const HS = "facts §6.2 — verification handshake";
const NOTE = "facts §6.3 — notifications";
const RETRY = "facts §6.3 — retries and 410";
const RENEW = "facts §6.4 — expiration and renewal";
const SET = "emulator contract — settings";
const HOST = "emulator contract — one host serves {base_url}, {authorize_url} and {alt_authorize_url}";
const CTRL = "emulator contract — control API";
const DATA = "emulator contract — data";
const DDISC = "newer IdP — discovery document";
const DAUTH = "newer IdP — authorize and callback (RFC 9207 iss)";
const DTOK = "newer IdP — token endpoint";
const DPORT = "newer IdP — one portal per client";
const DREV = "newer IdP — revocation (RFC 7009)";
const DBARE = "newer IdP — bare scope names (RING_EMULATOR_BARE_SCOPES)";
const RDOC = "facts §1 — date-range collections of everything the ring records (/v2/usercollection)";
const RTS = "facts §1 — datetime time series heartrate and ring_battery_level (/v2/usercollection)";
const RWIN = "facts §2.4 — windows of everything the ring records (/v2/usercollection)";
const RSCOPE = "facts §5.6 — the scope of each resource (403 without it), at both identity providers";
const RSB = "emulator contract — sandbox of everything the ring records";
const RCTRL = "emulator contract — control API of everything the ring records";
const RHOOK = "facts §6.1 — webhook data types of everything the ring records";

/** The new resources and their schema names (resources.test.ts). */
const R_DOCS: Record<string, [doc: string, multi: string]> = {
  workout: ["PublicWorkout", "MultiDocumentResponse_PublicWorkout_"],
  session: ["PublicSession", "MultiDocumentResponse_PublicSession_"],
  enhanced_tag: ["EnhancedTagModel", "MultiDocumentResponse_EnhancedTagModel_"],
  tag: ["TagModel", "MultiDocumentResponse_TagModel_"],
  vO2_max: ["PublicVO2Max", "MultiDocumentResponse_PublicVO2Max_"],
  sleep_time: ["PublicSleepTime", "MultiDocumentResponse_PublicSleepTime_"],
  rest_mode_period: ["PublicRestModePeriod", "MultiDocumentResponse_PublicRestModePeriod_"],
  ring_configuration: ["PublicRingConfiguration", "MultiDocumentResponse_PublicRingConfiguration_"],
};
const R_SERIES: Record<string, string> = {
  heartrate: "TimeSeriesResponse_PublicHeartRateRow_",
  ring_battery_level: "TimeSeriesResponse_PublicRingBatteryLevelRow_",
};
const R = {
  list: (c: string) =>
    t(RDOC, `${c}: every stored document once, in order, in pages of RING_EMULATOR_PAGE_SIZE (${R_DOCS[c]![1]}), each also served by id (${R_DOCS[c]![0]})`),
  notFound: t(RDOC, '404 {"detail":"Document not found."} for an unknown id on every single-document route; the time series have no single-document route'),
  ringParams: t(RDOC, "ring_configuration takes only next_token and fields: start_date and end_date are not its parameters and change nothing"),
  fields: t(RDOC, "fields: the requested fields plus the always-returned ones (id and day on workouts, timestamp on the time series)"),
  paging: (c: string) =>
    t(
      RTS,
      `${c}: a 30-day window pages at RING_EMULATOR_TIMESERIES_PAGE_SIZE rows (${R_SERIES[c]}); next_token, with or without the filters, yields every stored sample once, in time order`,
    ),
  latest: (c: string) => t(RTS, `${c}: latest=true returns the most recent sample only`),
  shapes: t(
    RTS,
    "sources and shapes seen in real responses: bpm, source (sleep, awake, workout, session, rest), timestamp in UTC +00:00, timestamp_unix; 5-s spacing in workouts",
  ),
  winWorkout: t(RWIN, "workout and session: filtered on the UTC start time, end-exclusive (date-only bounds are UTC midnight)"),
  winDay: t(RWIN, "sleep_time, tag: start_date=end_date=D returns day D (end-inclusive); enhanced_tag and rest_mode_period on their start_day"),
  winVo2: t(RWIN, "vO2_max: compared on its timestamp — a date-only end_date=D excludes D's estimate; end_date=DT23:59:59 includes it"),
  winHr: t(RWIN, "heartrate: start_datetime and end_datetime are instants, both inclusive; an offset on the bound is honoured"),
  defaults: t(RWIN, "defaults when omitted: the time series about the last 24 hours of data; the collections roughly yesterday → today"),
  errors: t(RWIN, "start after end → 400; a malformed datetime or latest value → 422 HTTPValidationError; an unknown next_token → 400"),
  range: t(RWIN, "heart-rate range: no maximum by default (a five-year window answers); RING_EMULATOR_TIMESERIES_MAX_DAYS=30 refuses a longer window with 400"),
  scopeLegacy: t(
    RSCOPE,
    "legacy names: heartrate → heartrate; workout → workout; session → session; tag → enhanced_tag and tag; daily → vO2_max, sleep_time, rest_mode_period, ring_configuration, ring_battery_level",
  ),
  scopeDev: t(RSCOPE, "extapi: names at the newer provider grant the same (extapi:heartrate, extapi:workout, extapi:session, extapi:tag, extapi:daily)"),
  sandbox: (c: string) => t(RSB, `${c}: fixed sample documents to any bearer (${R_DOCS[c]![1]}), each served by id; 404 for an unknown id`),
  sandboxSeries: t(RSB, "heartrate and ring_battery_level: fixed samples (the whole sample when bounds are omitted), paged, end-exclusive"),
  control: t(
    RCTRL,
    "GET /_emulator/users/{id}/documents/{name} lists every new resource; heartrate and ring_battery_level as their samples, optionally one window (start, end)",
  ),
  hookCreate: t(
    RHOOK,
    "sync creates documents of each new data type (tag, enhanced_tag, workout, session, sleep_time, rest_mode_period, ring_configuration, vo2_max): each notified after the delay and fetched by object_id",
  ),
  hookUpdate: t(
    RHOOK,
    "a revision of a day edits its new resources under the same ids (update notifications); a deleted workout is notified and then answers 404",
  ),
  hookSeries: t(
    RHOOK,
    "heart rate and battery have no webhook data type: a synced day's samples come with it (sync reports their count), nothing is notified for them",
  ),
};

// ---- frequently cited tests ---------------------------------------------------------------
const T = {
  codeFlow: t(LIFE, "authorization code issued → POST /oauth/token grant_type=authorization_code → access token and refresh token issued"),
  rotate: t(LIFE, "refresh token valid → grant_type=refresh_token → refresh token used (invalidated); a new access token and a new refresh token are returned"),
  expired: t(LIFE, "access token valid → expires_in seconds elapsed → access token expired; requests get 401"),
  implicit30: t(LIFE, "access token (client-side flow) → 30 days elapsed → expired; no refresh token exists (lifetime independent of the server-side one)"),
  implicitNoRefresh: t(IMPL, "item 4: no refresh token is issued; the token lasts 30 days (expires_in 2592000)"),
  deny: t(AUTH2, "on denial: same redirect URI with error=access_denied in place of code, plus state"),
  grant: t(AUTH2, "on grant: GET redirect_uri with query parameters code, scope and state (validated by oauth4webapi)"),
  subset: t(GEN, "item 5: the user may disable scopes — the granted list may differ from (be a subset of) the requested one"),
  scopeBlank: t(AUTH1, "scope: when blank, all available scopes are requested"),
  badClient: t(AUTH1, "client_id: an unknown client gives a 400 page and never a redirect"),
  noClient: t(AUTH1, "client_id: required — left out gives a 400 page and never a redirect"),
  badRedirect: t(AUTH1, "redirect_uri: must exactly match a registered redirect URI — unregistered, trailing slash, extra query or other case give a 400 page"),
  oneRedirect: t(AUTH1, "redirect_uri: may be left out only when exactly one is registered (then that one is used)"),
  basic: t(TOK, "client credentials may instead be sent by HTTP Basic (client_id as user name, client_secret as password; ClientSecretBasic)"),
  post: t(TOK, "client_id and client_secret: in the form body (oauth4webapi ClientSecretPost)"),
  reuseRefresh: t(REFRESH, "the used refresh token is invalidated — reusing it gives 400 invalid_grant (oauth4webapi ResponseBodyError)"),
  revokeGet: t(REVOKE, "GET {base_url}/oauth/revoke?access_token=… succeeds (200/204, empty body) and the token then gets 401"),
  revokePost: t(REVOKE, "POST {base_url}/oauth/revoke?access_token=… is accepted as well (facts §5.5)"),
  e400: t(ERR, "§7 400 — query parameters invalid or incorrectly formatted: start_date after end_date"),
  e400token: t(ERR, "§7 400 — an unknown next_token"),
  e403scope: t(ERR, "§7 403 — resource needs additional permissions (scope not granted)"),
  e403sub: t(ERR, "§7 403 — the user's subscription has expired so data is unavailable (and returns when renewed)"),
  e404: t(ERR, "§7 404 — document not found (single-document endpoints)"),
  e422: t(ERR, "§7 422 — validation error; body is HTTPValidationError"),
  e429: t(ERR, "§7 429 — rate limit exceeded; retry headers in section 8"),
  headers: t(LIM, "§8.3 429 carries Retry-After, X-RateLimit-Limit, X-RateLimit-Window, X-RateLimit-Reset, X-RateLimit-Tier"),
  tierToken: t(LIM, "§8.2 per access token: the token's ceiling gives 429 with X-RateLimit-Tier token"),
  tierApp: t(LIM, "§8.2 per application: the aggregate over all its user tokens gives 429 with X-RateLimit-Tier application"),
  rolling: t(LIM, "§8.3 the window is rolling: after Retry-After seconds the quota is back"),
  faults429: t(FAULT, "429 with retry_after: that value in Retry-After and all five headers; X-RateLimit-Limit is the ceiling of the tier named"),
  pagination: t(PAGE, "pages hold at most the page size; following next_token until null yields every document exactly once"),
  sbl400: t(SBL, "400: client exception — an unknown next_token, or start_date after end_date"),
  sbl422: t(SBL, "422: HTTPValidationError — a malformed start_date or end_date"),
  sbl401: t(SBL, "401: access token malformed — no Authorization header, an empty bearer or another scheme"),
  subCreate: t(SUB, "POST /v2/webhook/subscription: 201 with WebhookSubscriptionModel (id uuid4, callback_url, event_type, data_type, expiration_time)"),
  subList: t(SUB, "GET /v2/webhook/subscription: 200 with a bare array of the application's subscriptions"),
  subGet: t(SUB, "GET /v2/webhook/subscription/{id}: 200 with the subscription; an unknown id gives 403"),
  subPut: t(SUB, "PUT /v2/webhook/subscription/{id}: 200 with the changed fields; verification_token is required (422 without)"),
  subDelete: t(SUB, "DELETE /v2/webhook/subscription/{id}: 204 with an empty body; the deleted id then gives 403"),
  subRenew: t(SUB, "PUT /v2/webhook/subscription/renew/{id}: 200 with a later expiration_time (now + lifetime); unknown id gives 403"),
  subAuth: t(SUB, "all six routes need both x-client-id and x-client-secret: missing or wrong credentials are refused (401/403)"),
  subEnums: t(SUB, "POST: every ExtApiV2DataType value and every WebhookOperation is accepted"),
  sub422: t(SUB, "POST: a missing field or a value outside the enums gives 422 HTTPValidationError"),
  notifPost: t(NOTE, "after data syncs, POST <callback_url> with JSON event_type, data_type, object_id, event_time, user_id"),
  notifOnly: t(NOTE, "one notification per changed document of a subscribed (event_type, data_type) pair, and only those"),
  notifFetch: t(NOTE, "notify-only: object_id is fetched at GET /v2/usercollection/<data_type>/<object_id>"),
  notifUser: t(NOTE, "user_id is the id of the user's personal_info (emulator contract)"),
  signature: t(NOTE, "x-oura-signature is upper-case hex HMAC-SHA256(client_secret, x-oura-timestamp + raw body)"),
  timestamp: t(NOTE, "x-oura-timestamp is Unix time in seconds: the time of the delivery attempt"),
  delay: t(NOTE, "a notification follows a data change after RING_EMULATOR_WEBHOOK_DELAY_MS, not before"),
  appUsers: t(NOTE, "subscriptions cover all users who authorised the application, and only them"),
  retry5xx: t(RETRY, "a failing callback (5xx) is retried up to 10 times (11 attempts), then given up"),
  backoff: t(RETRY, "the first retry comes after RING_EMULATOR_WEBHOOK_RETRY_MS, and the delay then doubles"),
  retry4xx: t(RETRY, "4xx answers are retried as well, until a 2xx ends the delivery"),
  retryDrop: t(RETRY, "a connection error (no answer) counts as a failure and is retried"),
  retryTimeout: t(RETRY, "a callback that does not answer within 10 s counts as a failure (timeout) and is retried"),
  deletedSub: t(NOTE, "a deleted subscription receives nothing more"),
  gone410: t(RETRY, "answering 410 cancels the subscription: no more attempts, the id then gives 403, later changes are not sent"),
  deliveryLog: t(RETRY, "GET /_emulator/webhook-deliveries records subscription id, callback URL, attempt number, status or error, and time"),
  expTime: t(RENEW, "expiration_time is the creation time plus the subscription lifetime (RING_EMULATOR_SUBSCRIPTION_TTL_S)"),
  expRenew: t(RENEW, "an expired subscription receives no notifications; PUT /renew/{id} restores delivery"),
  handshake: t(HS, "on create, GET <callback_url>?verification_token=…&challenge=… is answered with {challenge} before the 201"),
  hsWrong: t(HS, "a callback that answers the wrong challenge fails the create; no subscription is stored"),
  hsReject: t(HS, "a callback that rejects the verification token (401) fails the create; no subscription is stored"),
  hsGone: t(HS, "an unreachable callback fails the create"),
  dDisc: t(
    DDISC,
    "{base}/oauth/v2/ext/oauth-anonymous/.well-known/openid-configuration names issuer {base}/oauth/v2/ext/oauth-anonymous (oauth4webapi processDiscoveryResponse)",
  ),
  dEndpoints: t(DDISC, "its endpoints are /oauth/v2/ext/oauth-authorize, -token, -revoke and -introspect on the same host"),
  dMeta: t(
    DDISC,
    "advertises scopes_supported (extapi: names, no offline_access), code only, both grants, S256 and plain, client_secret_basic and client_secret_post, and authorization_response_iss_parameter_supported",
  ),
  dGrant: t(DAUTH, "on grant the callback carries code, the granted extapi: scope, state as sent and iss = the issuer (validated by oauth4webapi)"),
  dForeign: t(DAUTH, "a callback with a foreign iss, or none, fails RFC 9207 validation"),
  dErrIss: t(DAUTH, "error redirects carry iss and state too: denial (access_denied) and an unknown scope (invalid_scope)"),
  dLegacyNoIss: t(DAUTH, "the legacy provider's callback carries no iss"),
  dConsent: t(DAUTH, "the consent form contract is the same (user, granted_scope, decision), each provider listing its own names"),
  dIdToken: t(
    DTOK,
    "the token response carries id_token: null, which oauth4webapi rejects as it stands; without it the response is a valid bearer token response",
  ),
  dScope: t(DTOK, "scope in the token response uses extapi:-prefixed names, and the names decide the data (extapi:spo2 ↔ daily_spo2)"),
  dPkce: t(DTOK, "PKCE as on the legacy side: a wrong code_verifier gives invalid_grant; the code is single-use"),
  dRefresh: t(DTOK, "single-use refresh tokens as on the legacy side (ClientSecretPost), each answer again with id_token: null"),
  dPortal: t(DPORT, "POST /_emulator/clients takes portal legacy|developer, legacy by default"),
  dLegacyCode: t(DPORT, 'a developer-portal client\'s code at the legacy token address gets 400 invalid_request "Invalid request"'),
  dLegacyRefresh: t(
    DPORT,
    "a developer-portal client's refresh token at the legacy token address gets 400 invalid_request, every time; a made-up client id gets invalid_client",
  ),
  dOldClient: t(
    DPORT,
    "an old-portal client is unknown at the newer provider: its authorize gives the 400 page (never a redirect) and its token request invalid_client",
  ),
  dRevAccess: t(DREV, "POST token (+ token_type_hint) with client authentication revokes an access token; its refresh token dies with it"),
  dRevRefresh: t(DREV, "revokes a refresh token (ClientSecretPost); unknown tokens answer 200; no client authentication gives invalid_client"),
  dBareIgnore: t(DBARE, "ignore (the default): bare names in the request are silently not granted — the token comes back, the data requests read nothing"),
  dBareGrant: t(DBARE, "grant: bare names are granted as their extapi: names"),
  sbList: (c: string) => t(SBL, `${c}: 200 with ${DAILY[c as keyof typeof DAILY].multi} (validated against the OpenAPI document)`),
  sbDoc: (c: string) => t(SBD, `${c}/{document_id}: 200 with ${DAILY[c as keyof typeof DAILY].doc}, the same document as in the list`),
  realList: (c: string) =>
    t(REAL, `${c}: the user's documents (${DAILY[c as keyof typeof DAILY].multi}) — every stored document once, in day order, each also served by id`),
  winIncl: (c: string) => t(WIN, `${c}: start_date=end_date=D returns day D (end-inclusive)`),
  sbWin: (c: string) => t(SBWIN, `${c}: start_date=end_date=D is empty; end_date=D+1 returns day D`),
};

export const SPEC_ROWS: SpecRow[] = [
  // ======================= interface §3 — states and transitions =======================
  { id: "iface §3 row 1", row: "authorization code issued → POST /oauth/token (authorization_code) → access + refresh token", tests: [T.codeFlow, T.grant] },
  {
    id: "iface §3 row 2",
    row: "refresh token valid → POST /oauth/token (refresh_token) → used; new access + refresh token",
    tests: [T.rotate, T.reuseRefresh],
  },
  { id: "iface §3 row 3", row: "access token valid → expires_in elapsed → expired; requests get 401", tests: [T.expired] },
  { id: "iface §3 row 4", row: "client-side access token → 30 days → expired; no refresh token", tests: [T.implicit30, T.implicitNoRefresh] },

  // ======================= interface §4.1 — sandbox list endpoints =======================
  ...DAILY_COLLECTIONS.map((c) => ({
    id: `iface §4.1 path ${c}`,
    row: `GET /v2/sandbox/usercollection/${c}`,
    tests: [T.sbList(c), T.sbWin(c)],
  })),
  {
    id: "iface §4.1 param start_date",
    row: "start_date: string or null, ISO 8601 date or date-time",
    tests: [t(SBL, "query start_date: string or null, ISO 8601 date or date-time"), T.sbl422],
  },
  {
    id: "iface §4.1 param end_date",
    row: "end_date: string or null, ISO 8601 date or date-time",
    tests: [t(SBL, "query end_date: string or null, ISO 8601 date or date-time"), T.sbl422],
  },
  {
    id: "iface §4.1 param next_token",
    row: "next_token: continuation value for the next page",
    tests: [
      t(SBL, "query next_token: continuation value for the next page (null on the last page)"),
      T.pagination,
      t(PAGE, "next_token works with the original filters repeated and with next_token alone"),
      t(PAGE, "a window narrower than the history is honoured across pages"),
    ],
  },
  {
    id: "iface §4.1 param fields",
    row: "fields: comma-separated field names (sample requests; undeclared)",
    tests: [
      t(SBL, "query fields: comma-separated field names are accepted though undeclared (200, a typed or Dict body)"),
      t(SBL, "200: the multi-document schema or MultiDocumentResponseDict (a fields projection)"),
    ],
  },
  {
    id: "iface §4.1 status 200",
    row: "200: the collection's multi-document schema or MultiDocumentResponseDict",
    tests: [
      ...DAILY_COLLECTIONS.map(T.sbList),
      t(SBL, "200: the multi-document schema or MultiDocumentResponseDict (a fields projection)"),
      t(PAGE, "an empty result is {data: [], next_token: null} with 200"),
    ],
  },
  { id: "iface §4.1 status 400", row: "400: client exception", tests: [T.sbl400] },
  { id: "iface §4.1 status 401", row: "401: access token expired, malformed or revoked", tests: [T.sbl401] },
  {
    id: "iface §4.1 status 403",
    row: "403: access forbidden, usually an expired user subscription",
    tests: [t(SBL, "403: access forbidden, usually an expired user subscription (on the /v2/usercollection twin; the sandbox takes any bearer)")],
  },
  {
    id: "iface §4.1 status 429",
    row: "429: rate limit exceeded",
    tests: [
      t(SBL, "429: rate limit exceeded (sandbox calls count against the caller's limit)"),
      t(LIM, "§8.2 sandbox calls count against the same limit (facts §7)"),
    ],
  },
  { id: "iface §4.1 status 422", row: "422: HTTPValidationError", tests: [T.sbl422] },
  {
    id: "iface §4.1 daily_stress",
    row: "daily_stress: only the request side shown (same three parameters)",
    tests: [T.sbList("daily_stress"), T.sbWin("daily_stress")],
  },

  // ======================= interface §4.2 — sandbox single-document endpoints ===========
  ...SINGLE_DOC_COLLECTIONS.map((c) => ({
    id: `iface §4.2 path ${c}/{document_id}`,
    row: `GET /v2/sandbox/usercollection/${c}/{document_id}`,
    tests: [T.sbDoc(c)],
  })),
  { id: "iface §4.2 status 200", row: "200: the collection's document schema", tests: SINGLE_DOC_COLLECTIONS.map(T.sbDoc) },
  { id: "iface §4.2 status 404", row: "404: not found", tests: [t(SBD, "404: not found — an unknown document_id on every single-document route")] },
  {
    id: "iface §4.2 status 400/401/403/429",
    row: "400, 401, 403, 429: as in 4.1",
    tests: [t(SBD, "401, 403 and 429 as in 4.1 (401 without a bearer, 403 for an expired subscription on the twin, 429 when limited)")],
  },
  {
    id: "iface §4.2 status 422",
    row: "422: HTTPValidationError",
    tests: [],
    untestable:
      "the single-document routes take no query parameters and accept any document_id string, so no request can fail validation (400 likewise has no trigger here; 401/403/429 are covered)",
  },
  {
    id: "iface §4.2 daily_stress (facts §1)",
    row: "every date-range collection also has GET /{document_id}",
    tests: [t(SBD, "daily_stress: a single-document route answers as for the other collections (facts §1: every collection has GET /{document_id})")],
  },

  // ======================= interface §4.3 / §4.4 ==========================================
  {
    id: "iface §4.3 personal_info",
    row: "/v2/usercollection/personal_info",
    tests: [
      t(REAL, "personal_info: a bare object (PersonalInfoResponse) whose id is the emulator user_id"),
      t(PI, "personal_info always answers 200 with id; email null without the email scope; age/weight/height/biological_sex null without personal"),
    ],
  },
  {
    id: "iface §4.3 sleep",
    row: "/v2/usercollection/sleep",
    tests: [t(REAL, "sleep: sleep periods as MultiDocumentResponse_PublicModifiedSleepModel_, each also served by id")],
  },
  ...DAILY_COLLECTIONS.map((c) => ({
    id: `iface §4.3 ${c}`,
    row: `/v2/usercollection/${c} (the real twin of the sandbox route)`,
    tests: [T.realList(c)],
  })),
  {
    id: "iface §4.3 per-user documents",
    row: "the real family serves the caller's own data",
    tests: [t(REAL, "another user's document id answers 404 (documents are per user)")],
  },
  {
    id: "iface §4.4 webhook subscription routes",
    row: "a group of routes for webhook subscriptions exists (made concrete by facts §6.1)",
    tests: [T.subCreate, T.subList, T.subGet, T.subPut, T.subDelete, T.subRenew],
  },

  // ======================= interface §5.1 ==================================================
  {
    id: "iface §5.1 item 1",
    row: "data requests carry Authorization: Bearer <ACCESS_TOKEN>",
    tests: [
      t(BEARER, "item 1: data requests carry Authorization: Bearer <ACCESS_TOKEN> — with it 200, without it 401"),
      t(BEARER, "item 1: the token is not accepted in the query string (facts §1: query-parameter tokens were removed)"),
    ],
  },
  {
    id: "iface §5.1 item 2",
    row: "security options BearerAuth or OAuth2",
    tests: [t(BEARER, "item 2: BearerAuth or OAuth2 — the OAuth access token is the bearer credential on every route family")],
  },
  {
    id: "iface §5.1 item 3",
    row: "personal access tokens are no longer usable",
    tests: [t(BEARER, "item 3: personal access tokens are not usable — an arbitrary token string gives 401 on user data")],
  },
  {
    id: "iface §5.1 item 4",
    row: "authorize at {authorize_url}/oauth/authorize, token at {base_url}/oauth/token, alternative {alt_authorize_url}/authorize",
    tests: [
      t(GEN, "item 4: the alternative authorization address {alt_authorize_url}/authorize serves the same flow"),
      t(HOST, "/oauth/authorize, /authorize, /oauth/token, /oauth/revoke and /v2/... answer on the same origin"),
    ],
  },
  {
    id: "iface §5.1 item 5",
    row: "8 scopes; each can be enabled/disabled; granted list may differ",
    tests: [
      t(GEN, "item 5: the eight scopes email, personal, daily, heartrate, workout, tag, session, spo2Daily are each grantable"),
      T.subset,
      t(GEN, "item 5: scopes ticked beyond the request are not granted"),
      T.scopeBlank,
    ],
  },

  // ======================= interface §5.2 step 1 ===========================================
  {
    id: "iface §5.2 step 1 response_type",
    row: "response_type: required, must be code",
    tests: [
      t(AUTH1, "response_type: required — left out gives an error redirect (invalid_request) carrying state"),
      t(AUTH1, "response_type: must be `code` — another value gives unsupported_response_type carrying state"),
      t(AUTH1, "response_type=code renders the consent page: one checkbox per requested scope, Allow and Deny, POST to the same URL"),
    ],
  },
  { id: "iface §5.2 step 1 client_id", row: "client_id: required, application client ID", tests: [T.noClient, T.badClient] },
  {
    id: "iface §5.2 step 1 redirect_uri",
    row: "redirect_uri: optional; URL-encoded; exact match; may be left out only when exactly one is registered",
    tests: [T.badRedirect, t(AUTH1, "redirect_uri: URL-encoded; the exact registered URI is accepted and used for the redirect"), T.oneRedirect],
  },
  {
    id: "iface §5.2 step 1 state",
    row: "state: optional; returned unchanged, also on denial",
    tests: [
      t(AUTH1, "state: arbitrary string returned unchanged in the redirect"),
      t(AUTH1, "state: returned unchanged also on denial"),
      t(AUTH1, "state: optional — without it the redirect carries no state"),
    ],
  },
  {
    id: "iface §5.2 step 1 scope",
    row: "scope: optional; space-separated; blank = all scopes",
    tests: [
      t(AUTH1, "scope: space-separated scopes, each offered and granted on its own"),
      T.scopeBlank,
      t(AUTH1, "scope: an unknown scope gives an invalid_scope error redirect carrying state"),
    ],
  },
  {
    id: "iface §5.2 step 1 code_challenge",
    row: "code_challenge: recommended; base64url SHA-256 of a 43–128 character verifier",
    tests: [
      t(AUTH1, "code_challenge: recommended — an S256 challenge is accepted and a code issued"),
      t(AUTH1, "code_challenge: a value that is not base64url SHA-256 never yields tokens"),
    ],
  },
  {
    id: "iface §5.2 step 1 code_challenge_method",
    row: "code_challenge_method: required with a challenge; must be S256",
    tests: [
      t(AUTH1, "code_challenge_method: required if code_challenge is given — left out gives invalid_request carrying state"),
      t(AUTH1, "code_challenge_method: must be `S256` — plain gives invalid_request carrying state"),
    ],
  },

  // ======================= interface §5.2 step 2 ===========================================
  { id: "iface §5.2 step 2 grant", row: "on grant: redirect with code, scope, state (if sent)", tests: [T.grant] },
  { id: "iface §5.2 step 2 denial", row: "on denial: redirect with error=access_denied, plus state", tests: [T.deny] },

  // ======================= interface §5.2 step 3 ===========================================
  {
    id: "iface §5.2 step 3 encoding",
    row: "POST /oauth/token, application/x-www-form-urlencoded, UTF-8",
    tests: [t(TOK, "body: application/x-www-form-urlencoded, UTF-8 (a charset parameter is accepted)")],
  },
  {
    id: "iface §5.2 step 3 grant_type",
    row: "grant_type: required, authorization_code",
    tests: [
      t(TOK, "grant_type: required — left out gives 400"),
      t(TOK, "grant_type: only authorization_code or refresh_token — another value gives 400 unsupported_grant_type"),
    ],
  },
  {
    id: "iface §5.2 step 3 code",
    row: "code: required, the code from the redirect",
    tests: [
      t(TOK, "code: required — left out gives 400"),
      t(TOK, "code: an unknown code gives 400 invalid_grant"),
      t(TOK, "code: a code issued to another client gives 400 invalid_grant"),
    ],
  },
  {
    id: "iface §5.2 step 3 redirect_uri",
    row: "redirect_uri: identical to the authorization request; omitted if omitted there",
    tests: [
      t(TOK, "redirect_uri: identical to the one in the authorization request — a different one is refused"),
      t(TOK, "redirect_uri: sent at authorize, so leaving it out at the token step is refused"),
      t(TOK, "redirect_uri: must be omitted if it was omitted there — omitted at both steps succeeds, sending it then is refused"),
    ],
  },
  {
    id: "iface §5.2 step 3 client_id",
    row: "client_id: required unless HTTP Basic is used",
    tests: [T.post, t(TOK, "client credentials: required — none at all is refused with invalid_client")],
  },
  {
    id: "iface §5.2 step 3 client_secret",
    row: "client_secret: required unless HTTP Basic is used",
    tests: [
      T.post,
      t(TOK, "client credentials: a wrong secret is refused with invalid_client (Basic and body)"),
      t(TOK, "client credentials: required — none at all is refused with invalid_client"),
    ],
  },
  {
    id: "iface §5.2 step 3 code_verifier",
    row: "code_verifier: required if a code_challenge was given",
    tests: [
      t(TOK, "code_verifier: required if a code_challenge was given — left out gives 400"),
      t(TOK, "code_verifier: the original verifier — a different one gives 400 invalid_grant"),
      t(TOK, "code_verifier: without a code_challenge none is needed (oauth4webapi nopkce)"),
    ],
  },
  { id: "iface §5.2 step 3 HTTP Basic", row: "client credentials by HTTP Basic (client_id user, client_secret password)", tests: [T.basic] },
  {
    id: "iface §5.2 step 3 response",
    row: "token_type bearer, access_token alphanumeric, expires_in integer s, refresh_token alphanumeric single-use",
    tests: [t(TOKRES, "JSON: token_type `bearer`, access_token (alphanumeric), expires_in (integer seconds), refresh_token (alphanumeric)")],
  },

  // ======================= interface §5.2 step 4 ===========================================
  {
    id: "iface §5.2 step 4 refresh",
    row: "grant_type=refresh_token + refresh_token + client credentials → same four properties; old refresh token invalidated",
    tests: [
      t(REFRESH, "grant_type=refresh_token with HTTP Basic client credentials returns the same four properties"),
      t(REFRESH, "grant_type=refresh_token with client credentials in the body (oauth4webapi ClientSecretPost)"),
      T.reuseRefresh,
      t(REFRESH, "refresh_token: required — left out gives 400"),
      t(REFRESH, "refresh token and client credentials must belong together — another client's refresh token is refused"),
      t(REFRESH, "the refreshed access token keeps the granted scopes"),
    ],
  },

  // ======================= interface §5.3 ==================================================
  {
    id: "iface §5.3 item 1",
    row: "response_type=token; client_id, redirect_uri, state, scope as in 5.2",
    tests: [t(IMPL, "item 1: response_type=token with client_id, redirect_uri, state and scope as in 5.2")],
  },
  {
    id: "iface §5.3 item 2",
    row: "fragment: token_type, access_token, expires_in, scope (subset), state",
    tests: [t(IMPL, "item 2: on grant the fragment carries token_type=bearer, access_token, expires_in, scope (subset) and state")],
  },
  {
    id: "iface §5.3 item 3",
    row: "denial: error=access_denied and state",
    tests: [t(IMPL, "item 3: on denial the redirect carries error=access_denied and state")],
  },
  { id: "iface §5.3 item 4", row: "no refresh tokens; 30 days", tests: [T.implicitNoRefresh, T.implicit30] },

  // ======================= interface §5.4 ==================================================
  {
    id: "iface §5.4 revoke",
    row: "{base_url}/oauth/revoke?access_token=<ACCESS_TOKEN>",
    tests: [T.revokeGet, T.revokePost, t(ERR, "§7 401 — access token revoked")],
  },

  // ======================= interface §7 ====================================================
  { id: "iface §7 200", row: "200 success", tests: [t(ERR, "§7 200 — success")] },
  { id: "iface §7 400", row: "400 query parameters invalid or incorrectly formatted", tests: [T.e400, T.e400token, T.sbl400] },
  {
    id: "iface §7 401",
    row: "401 access token invalid, expired, malformed or revoked",
    tests: [
      t(ERR, "§7 401 — access token invalid (unknown)"),
      t(ERR, "§7 401 — access token malformed"),
      t(ERR, "§7 401 — access token revoked"),
      t(ERR, "§7 401 — a refresh token is not an access token"),
      T.expired,
    ],
  },
  { id: "iface §7 403", row: "403 needs additional permissions, or subscription expired", tests: [T.e403scope, T.e403sub] },
  {
    id: "iface §7 404",
    row: "404 document not found (single-document endpoints)",
    tests: [T.e404, t(SBD, "404: not found — an unknown document_id on every single-document route")],
  },
  { id: "iface §7 422", row: "422 validation error; body HTTPValidationError", tests: [T.e422, T.sbl422] },
  { id: "iface §7 429", row: "429 rate limit exceeded; retry headers in §8", tests: [T.e429, T.headers] },
  {
    id: "iface §7 denial",
    row: "authorization denial by redirect with error=access_denied",
    tests: [T.deny, t(IMPL, "item 3: on denial the redirect carries error=access_denied and state")],
  },

  // ======================= interface §8 ====================================================
  {
    id: "iface §8 item 1",
    row: "unapproved applications: at most 10 users",
    tests: [
      t(LIM, "§8.1 unapproved applications: at most 10 users — the 11th distinct user gets no access token"),
      t(LIM, "§8.1 after approval there is no user limit"),
      t(LIM, "§8.1 the demo client ringside-demo is not approved (the 10-user cap applies)"),
    ],
  },
  {
    id: "iface §8 item 2",
    row: "two layers: per access token and per application; either gives 429",
    tests: [T.tierToken, T.tierApp, t(LIM, "§8.2 sandbox calls count against the same limit (facts §7)")],
  },
  { id: "iface §8.3 Retry-After", row: "Retry-After: integer seconds to wait", tests: [T.headers, T.rolling, T.faults429] },
  { id: "iface §8.3 X-RateLimit-Limit", row: "X-RateLimit-Limit: request ceiling of the current window", tests: [T.headers, T.tierToken, T.tierApp] },
  { id: "iface §8.3 X-RateLimit-Window", row: "X-RateLimit-Window: rolling window length in seconds", tests: [T.headers, T.rolling] },
  { id: "iface §8.3 X-RateLimit-Reset", row: "X-RateLimit-Reset: Unix epoch seconds when quota is restored", tests: [T.headers] },
  { id: "iface §8.3 X-RateLimit-Tier", row: "X-RateLimit-Tier: which layer's limit was exceeded", tests: [T.tierToken, T.tierApp, T.faults429] },
  {
    id: "iface §8 item 4",
    row: "clients are advised to use these headers",
    tests: [T.rolling],
    untestable: "advice to clients; the emulator side (headers that make it possible) is covered",
  },
  {
    id: "iface §8 item 5",
    row: "client-side token 30 days; PKCE verifier 43–128 characters",
    tests: [T.implicit30, t(TOK, "§8.5 PKCE verifier length: 43 to 128 characters inclusive — 42 and 129 are refused, 43 and 128 accepted")],
  },
  { id: "iface §8 item 6", row: "numeric ceilings and windows: not shown (emulator: settings)", tests: [T.tierToken, T.tierApp] },
  {
    id: "iface §8 item 7",
    row: "page size and maximum range: not shown (emulator: RING_EMULATOR_PAGE_SIZE)",
    tests: [T.pagination, t(SET, "overrides given to startEmulator are applied (tests set small values)")],
  },

  // ======================= ARCHITECTURE — emulator contract ===============================
  {
    id: "arch start/host",
    row: "one host serves {base_url}, {authorize_url} (/oauth/authorize) and {alt_authorize_url} (/authorize)",
    tests: [t(HOST, "/oauth/authorize, /authorize, /oauth/token, /oauth/revoke and /v2/... answer on the same origin")],
  },
  {
    id: "arch settings",
    row: "settings by variable with safe defaults (table), printed at start",
    tests: [
      t(SET, "npm run emulator: RING_EMULATOR_* variables are read and the settings printed at start"),
      t(
        SET,
        "every setting has the documented default (token TTL 86400, 5000/25000 per 300 s, page 100, webhook 30000/2000 ms, subscription 7776000 s, history 730 days, port 4010)",
      ),
      t(SET, "overrides given to startEmulator are applied (tests set small values)"),
    ],
  },
  {
    id: "arch demo client",
    row: "ringside-demo / ringside-demo-secret / http://localhost:3000/api/auth/callback/ring, not approved",
    tests: [
      t(CONSENT, "the demo client ringside-demo is registered at start with http://localhost:3000/api/auth/callback/ring"),
      t(LIM, "§8.1 the demo client ringside-demo is not approved (the 10-user cap applies)"),
    ],
  },
  {
    id: "arch consent",
    row: "GET renders consent HTML; POST same URL with user, granted_scope, decision → 302",
    tests: [
      t(AUTH1, "response_type=code renders the consent page: one checkbox per requested scope, Allow and Deny, POST to the same URL"),
      t(CONSENT, "the consent POST creates the account on first use (user e-mail) and reuses it afterwards"),
      T.grant,
      T.deny,
    ],
  },
  {
    id: "arch authorize 400 page",
    row: "unknown client or unregistered redirect_uri → 400 page, never a redirect",
    tests: [T.badClient, T.noClient, T.badRedirect, T.oneRedirect],
  },
  {
    id: "arch authorize error redirect",
    row: "other bad requests → error redirect (invalid_request, unsupported_response_type, invalid_scope) with state",
    tests: [
      t(AUTH1, "response_type: required — left out gives an error redirect (invalid_request) carrying state"),
      t(AUTH1, "response_type: must be `code` — another value gives unsupported_response_type carrying state"),
      t(AUTH1, "scope: an unknown scope gives an invalid_scope error redirect carrying state"),
    ],
  },
  {
    id: "arch control clients",
    row: "POST /_emulator/clients",
    tests: [t(CONSENT, "POST /_emulator/clients registers a client whose redirect URIs are then accepted")],
  },
  {
    id: "arch control users",
    row: "POST /_emulator/users → {user_id, email}",
    tests: [t(CTRL, "POST /_emulator/users {email, history_days} → {user_id, email}; the user has that many days of history")],
  },
  {
    id: "arch control patch user",
    row: "PATCH /_emulator/users/{id} {subscription}",
    tests: [t(CTRL, "POST /_emulator/users {subscription: expired} → data answers 403; PATCH /_emulator/users/{id} {subscription: active} → 200"), T.e403sub],
  },
  {
    id: "arch control sync",
    row: "POST /_emulator/users/{id}/sync {day?} → documents created or changed; notifications follow",
    tests: [
      t(CTRL, "POST /_emulator/users/{id}/sync {day} → the documents created or changed for that day; the API then serves them"),
      t(CTRL, "POST /_emulator/users/{id}/sync without a day syncs today (existing documents change, same ids)"),
      T.notifOnly,
    ],
  },
  {
    id: "arch control documents",
    row: "GET /_emulator/users/{id}/documents/{collection}",
    tests: [t(CTRL, "GET /_emulator/users/{id}/documents/{collection} → every stored document of the seven daily collections and sleep")],
  },
  {
    id: "arch control faults",
    row: "POST /_emulator/faults {status, count, path_prefix?, retry_after?} → 429 (five headers), 5xx, or dropped connection",
    tests: [
      T.faults429,
      t(FAULT, "5xx: the next `count` matching data requests fail; path_prefix limits which ones"),
      t(FAULT, "a dropped connection (status 0) makes the request fail at the network level"),
    ],
  },
  {
    id: "arch control deliveries",
    row: "GET /_emulator/webhook-deliveries: subscription id, callback URL, attempt, status/error, time",
    tests: [T.deliveryLog, T.retry5xx],
  },
  {
    id: "arch control reset",
    row: "POST /_emulator/reset → empty state, demo client re-registered",
    tests: [t(CTRL, "POST /_emulator/reset → empty state (tokens, clients, users gone), demo client re-registered")],
  },
  {
    id: "arch decision 422 vs 400",
    row: "wrong type/format → 422 HTTPValidationError; parses but cannot be served (unknown next_token, start after end) → 400",
    tests: [T.e422, T.e400, T.e400token, t(WIN, "start after end → 400 (emulator contract; the hand-made 422 is uncertain)")],
  },
  {
    id: "arch decision faults retry_after/tier",
    row: "retry_after → Retry-After; X-RateLimit-Limit = ceiling of the layer; X-RateLimit-Tier token|application",
    tests: [T.faults429, T.tierToken, T.tierApp],
  },
  {
    id: "arch decision implicit expires_in",
    row: "implicit tokens: expires_in 2592000 whatever the server-side lifetime",
    tests: [T.implicitNoRefresh, T.implicit30],
  },
  {
    id: "arch decision user_id",
    row: "user_id = personal_info.id = webhook user_id",
    tests: [t(REAL, "personal_info: a bare object (PersonalInfoResponse) whose id is the emulator user_id"), T.notifUser],
  },
  {
    id: "arch decision personal_info",
    row: "personal_info always 200 with id; email null without email; age/weight/height/biological_sex null without personal",
    tests: [t(PI, "personal_info always answers 200 with id; email null without the email scope; age/weight/height/biological_sex null without personal")],
  },
  {
    id: "arch decision local callbacks",
    row: "callbacks may be http://localhost or http://127.0.0.1",
    tests: [t(SUB, "callback URLs may be http://localhost or http://127.0.0.1 (emulator contract)")],
  },
  {
    id: "arch decision retries",
    row: "failed deliveries retried up to 10 times, first after RING_EMULATOR_WEBHOOK_RETRY_MS, doubling",
    tests: [T.retry5xx, T.backoff],
  },
  { id: "arch decision unknown subscription", row: "unknown or deleted subscription id → 403", tests: [T.subGet, T.subDelete, T.subRenew, T.gone410] },
  {
    id: "arch data deterministic",
    row: "data deterministic per user (seeded)",
    tests: [
      t(DATA, "deterministic per user: the same seed and e-mail give the same documents in a fresh emulator"),
      t(DATA, "a different seed gives different data"),
    ],
  },
  {
    id: "arch data coverage",
    row: "seven daily collections, personal_info and sleep; responses validate against the OpenAPI schemas",
    tests: [...DAILY_COLLECTIONS.map(T.realList), t(REAL, "sleep: sleep periods as MultiDocumentResponse_PublicModifiedSleepModel_, each also served by id")],
  },
  {
    id: "arch sandbox",
    row: "sandbox serves fixed sample documents to any bearer token",
    tests: [
      t(DATA, "the sandbox family serves the same fixed sample documents to any bearer token"),
      t(DATA, "personal_info has no sandbox twin (facts §3.8)"),
    ],
  },

  // ======================= facts §2.4 — date windows ======================================
  {
    id: "facts §2.4 parameter types",
    row: "start_date/end_date accept a date or a date-time",
    tests: [t(WIN, "start_date and end_date accept a date or a date-time (anyOf date-time, date)")],
  },
  {
    id: "facts §2.4 lenient parsing",
    row: "start_date=0024-11-11 accepted, returns the whole history",
    tests: [t(WIN, "parsing is lenient: a year-0024 start_date is accepted and returns the whole history")],
  },
  ...DAILY_COLLECTIONS.filter((c) => c !== "daily_activity").map((c) => ({
    id: `facts §2.4 end-inclusive ${c}`,
    row: `${c}: start=end=D returns day D`,
    tests: [T.winIncl(c)],
  })),
  { id: "facts §2.4 end-inclusive sleep_time", row: "sleep_time: start=end=D returns day D", tests: [R.winDay] },
  {
    id: "facts §2.4 daily_activity",
    row: "date-only end_date excludes the last day; end=D+1 or DT23:59:59 includes it",
    tests: [t(WIN, "daily_activity: a date-only end_date excludes that day; end_date=D+1 or end_date=DT23:59:59 includes it")],
  },
  {
    id: "facts §2.4 sleep",
    row: "end=D misses a sleep whose day is D; end needs +1 day (start side: sources conflict)",
    tests: [t(WIN, "sleep: end_date=D misses a sleep period whose day is D; end_date=D+1 includes it")],
  },
  { id: "facts §2.4 workout", row: "workout filters on UTC start time, end-exclusive", tests: [R.winWorkout] },
  { id: "facts §2.4 heartrate", row: "heartrate: full datetimes", tests: [R.winHr, R.paging("heartrate")] },
  { id: "facts §2.4 sandbox", row: "sandbox (all): end-exclusive everywhere", tests: DAILY_COLLECTIONS.map(T.sbWin) },
  { id: "facts §2.4 defaults", row: "defaults when omitted: roughly yesterday → today", tests: [t(WIN, "defaults when omitted: roughly yesterday → today")] },
  {
    id: "facts §2.4 start after end",
    row: "start after end (hand-made 422, uncertain; contract: 400)",
    tests: [t(WIN, "start after end → 400 (emulator contract; the hand-made 422 is uncertain)")],
  },
  {
    id: "facts §2.4 heart-rate range",
    row: "whether the server enforces a maximum range: unknown (emulator: none by default, RING_EMULATOR_TIMESERIES_MAX_DAYS)",
    tests: [R.range],
  },

  // ======================= facts §5 — OAuth2 ===============================================
  {
    id: "facts §5.1 endpoints",
    row: "authorize /oauth/authorize, token /oauth/token, revoke /oauth/revoke?access_token=",
    tests: [t(HOST, "/oauth/authorize, /authorize, /oauth/token, /oauth/revoke and /v2/... answer on the same origin"), T.revokeGet],
  },
  {
    id: "facts §5.1 new identity provider",
    row: "new IdP endpoints (authorize, token, revoke), issuer and discovery, iss parameter on the callback",
    tests: [T.dDisc, T.dEndpoints, T.dGrant, T.dRevAccess],
  },
  {
    id: "facts §5.1 new-portal apps at the legacy token URL",
    row: 'new-portal apps get 400 invalid_request "Invalid request" refreshing at the legacy token URL; the new token URL works; old-portal apps keep the legacy URLs',
    tests: [T.dLegacyRefresh, T.dLegacyCode, T.dRefresh, T.codeFlow],
  },
  {
    id: "facts §5.2 response_type",
    row: "code, or token for the client-side flow (30 days)",
    tests: [T.grant, t(IMPL, "item 2: on grant the fragment carries token_type=bearer, access_token, expires_in, scope (subset) and state")],
  },
  { id: "facts §5.2 redirect_uri", row: "optional if exactly one is registered, otherwise exact match", tests: [T.oneRedirect, T.badRedirect] },
  { id: "facts §5.2 scope", row: "space-separated; omitted = all", tests: [T.scopeBlank] },
  { id: "facts §5.2 success/denied redirect", row: "code + granted scope + state; denied error=access_denied + state", tests: [T.grant, T.deny] },
  { id: "facts §5.2 untick scopes", row: "user can untick scopes; granted set comes back in scope", tests: [T.subset] },
  {
    id: "facts §5.2 codes",
    row: "codes are single-use and valid 10 minutes",
    tests: [
      t(TOK, "code: single-use (facts §5.2) — a second exchange gives 400 invalid_grant"),
      t(TOK, "code: valid for the configured lifetime (facts §5.2: 10 minutes) — an expired code gives 400 invalid_grant"),
    ],
  },
  { id: "facts §5.3 code grant", row: "grant_type, code, redirect_uri, client_id, client_secret (or Basic)", tests: [T.post, T.basic, T.codeFlow] },
  {
    id: "facts §5.3 refresh grant",
    row: "grant_type=refresh_token, refresh_token, client credentials",
    tests: [
      t(REFRESH, "grant_type=refresh_token with HTTP Basic client credentials returns the same four properties"),
      t(REFRESH, "grant_type=refresh_token with client credentials in the body (oauth4webapi ClientSecretPost)"),
    ],
  },
  { id: "facts §5.3 single-use refresh", row: "each refresh returns a new refresh token; reuse fails (400 invalid_grant)", tests: [T.rotate, T.reuseRefresh] },
  {
    id: "facts §5.3 invalid_grant",
    row: "invalid_grant: code expired/used, refresh token used/revoked",
    tests: [
      t(TOK, "code: single-use (facts §5.2) — a second exchange gives 400 invalid_grant"),
      T.reuseRefresh,
      t(TOK, "code: an unknown code gives 400 invalid_grant"),
    ],
  },
  {
    id: "facts §5.3 invalid_client",
    row: "invalid_client: wrong client id/secret",
    tests: [t(TOK, "client credentials: a wrong secret is refused with invalid_client (Basic and body)")],
  },
  {
    id: "facts §5.3 invalid_redirect_uri",
    row: "redirect URI mismatch",
    tests: [t(TOK, "redirect_uri: identical to the one in the authorization request — a different one is refused")],
  },
  {
    id: "facts §5.3 invalid_request",
    row: "invalid_request 400",
    tests: [t(TOK, "code: required — left out gives 400"), t(REFRESH, "refresh_token: required — left out gives 400")],
  },
  {
    id: "facts §5.3 unsupported_grant_type",
    row: "unsupported_grant_type 400; only authorization_code/refresh_token valid",
    tests: [t(TOK, "grant_type: only authorization_code or refresh_token — another value gives 400 unsupported_grant_type")],
  },
  {
    id: "facts §5.4 lifetime",
    row: "access-token lifetime configurable (default 86400)",
    tests: [
      T.expired,
      t(TOKRES, "JSON: token_type `bearer`, access_token (alphanumeric), expires_in (integer seconds), refresh_token (alphanumeric)"),
      t(
        SET,
        "every setting has the documented default (token TTL 86400, 5000/25000 per 300 s, page 100, webhook 30000/2000 ms, subscription 7776000 s, history 730 days, port 4010)",
      ),
    ],
  },
  { id: "facts §5.5 revoke", row: "accept GET and POST, 200/204 empty body", tests: [T.revokeGet, T.revokePost] },
  {
    id: "facts §5.6 new IdP scopes",
    row: "extapi: names at the new IdP (discovery scopes_supported); no offline_access",
    tests: [T.dMeta, T.dScope, T.dConsent],
  },
  {
    id: "facts §5.6 bare names at the new IdP (conflict)",
    row: "NOTES-B: bare names silently not granted; NOTES-A: bare names granted as prefixed names — a setting, default ignore",
    tests: [T.dBareIgnore, T.dBareGrant],
  },
  {
    id: "facts §5.6 scopes",
    row: "legacy scope names; missing scope → 403",
    tests: [t(GEN, "item 5: the eight scopes email, personal, daily, heartrate, workout, tag, session, spo2Daily are each grantable"), T.e403scope],
  },

  // ======================= facts §6 — webhooks =============================================
  { id: "facts §6.1 GET list", row: "GET /v2/webhook/subscription → 200 bare array", tests: [T.subList] },
  { id: "facts §6.1 POST", row: "POST /v2/webhook/subscription → 201 WebhookSubscriptionModel; 422", tests: [T.subCreate, T.sub422, T.subEnums] },
  { id: "facts §6.1 GET one", row: "GET /v2/webhook/subscription/{id} → 200; 403; 422", tests: [T.subGet] },
  { id: "facts §6.1 PUT", row: "PUT /v2/webhook/subscription/{id} → 200; 403; 422", tests: [T.subPut] },
  { id: "facts §6.1 DELETE", row: "DELETE /v2/webhook/subscription/{id} → 204 empty; 403; 422", tests: [T.subDelete, T.deletedSub] },
  { id: "facts §6.1 renew", row: "PUT /v2/webhook/subscription/renew/{id} → 200 new expiration_time; 403; 422", tests: [T.subRenew] },
  { id: "facts §6.1 credentials", row: "x-client-id and x-client-secret on all routes", tests: [T.subAuth] },
  {
    id: "facts §6.1 bodies",
    row: "Create/Update requests, WebhookSubscriptionModel, WebhookOperation, ExtApiV2DataType",
    tests: [T.subCreate, T.subEnums, T.sub422, T.subPut],
  },
  {
    id: "facts §6.1 one per pair",
    row: "one subscription per (event_type, data_type); same callback may serve many",
    tests: [
      t(SUB, "one subscription per (event_type, data_type) pair: a duplicate create is refused and not stored"),
      t(SUB, "the same callback URL may serve many subscriptions"),
    ],
  },
  {
    id: "facts §6.1 per application",
    row: "subscriptions are per application, cover all its users",
    tests: [t(SUB, "subscriptions are per application: another application neither lists nor reads them (403)"), T.appUsers],
  },
  { id: "facts §6.1 not found", row: "not-found status 403", tests: [T.subGet, T.subDelete] },
  {
    id: "facts §6.2 handshake",
    row: "GET callback?verification_token&challenge → 200 {challenge}; then active",
    tests: [T.handshake, T.hsWrong, T.hsReject, T.hsGone],
  },
  {
    id: "facts §6.3 notification",
    row: "POST callback with x-oura-signature, x-oura-timestamp, {event_type, data_type, object_id, event_time, user_id}",
    tests: [T.notifPost, T.notifOnly],
  },
  { id: "facts §6.3 notify-only", row: "fetch GET /v2/usercollection/<data_type>/<object_id>", tests: [T.notifFetch] },
  { id: "facts §6.3 user_id", row: "user_id = personal_info.id", tests: [T.notifUser, T.appUsers] },
  { id: "facts §6.3 signature", row: "HMAC-SHA256(client_secret, timestamp + body), upper-case hex", tests: [T.signature, T.timestamp] },
  { id: "facts §6.3 timing", row: "~30 s after sync (RING_EMULATOR_WEBHOOK_DELAY_MS)", tests: [T.delay] },
  {
    id: "facts §6.3 retries",
    row: "10 retries for 4xx, 5xx and timeouts",
    tests: [T.retry5xx, T.backoff, T.retry4xx, T.retryDrop, T.retryTimeout, T.deliveryLog],
  },
  { id: "facts §6.3 410", row: "answering 410 cancels the subscription", tests: [T.gone410] },
  { id: "facts §6.4 expiration", row: "expiration_time on every model; lifetime configurable (90 days)", tests: [T.expTime, T.subCreate] },
  { id: "facts §6.4 renewal", row: "PUT /renew/{id} extends it", tests: [T.subRenew, T.expRenew] },

  // ======================= facts Addendum 2026-11-23 — the newer identity provider ==========
  {
    id: "addendum discovery",
    row: "discovery document at …/oauth-anonymous/.well-known/openid-configuration; authorize, token, revoke, introspect endpoints",
    tests: [T.dDisc, T.dEndpoints],
  },
  {
    id: "addendum client authentication",
    row: "client_secret_basic and client_secret_post advertised (and accepted)",
    tests: [T.dMeta, T.dIdToken, T.dRefresh, T.dRevRefresh],
  },
  { id: "addendum PKCE", row: "PKCE advertised (S256 and plain), not mandatory; codes single-use", tests: [T.dMeta, T.dPkce] },
  {
    id: "addendum refresh without offline_access",
    row: "no offline_access scope: refresh tokens come because the refresh grant is supported",
    tests: [T.dMeta, T.dRefresh],
  },
  {
    id: "addendum iss on the callback",
    row: "the callback carries iss=<issuer> beside code and state (RFC 9207); also on error redirects",
    tests: [T.dGrant, T.dForeign, T.dErrIss, T.dLegacyNoIss],
  },
  { id: "addendum id_token null", row: "the token response carries id_token: null, which Auth.js's OAuth library rejects", tests: [T.dIdToken, T.dRefresh] },
  { id: "addendum state", row: "state: uncertain whether the real server returns it — the emulator returns it as sent", tests: [T.dGrant, T.dErrIss] },
  {
    id: "addendum legacy token address",
    row: "a made-up client id gets invalid_client; the real new-portal client gets 400 invalid_request for the code exchange and every refresh",
    tests: [T.dLegacyCode, T.dLegacyRefresh],
  },
  {
    id: "addendum one portal per client",
    row: "a client belongs to one portal (POST /_emulator/clients portal, legacy by default); the new IdP knows only developer-portal clients",
    tests: [T.dPortal, T.dOldClient],
  },
  {
    id: "addendum bare names",
    row: "bare names at the new authorize address: granted as extapi: names, or silently not granted (conflict → setting)",
    tests: [T.dBareIgnore, T.dBareGrant],
  },
  {
    id: "addendum consent contract",
    row: "the consent page and its form contract (user, granted_scope, decision) stay the same, each provider listing its own names",
    tests: [T.dConsent],
  },
  { id: "addendum data unchanged", row: "data endpoints unchanged (Bearer); extapi:daily covers the daily documents", tests: [T.dScope, T.dIdToken] },
  { id: "addendum revoke", row: "revoke at …/oauth-revoke (RFC 7009: token, token_type_hint, client authentication)", tests: [T.dRevAccess, T.dRevRefresh] },
  {
    id: "addendum redirect_uri",
    row: "redirect_uri must equal a registered one exactly; register one URI and always send it",
    tests: [T.dGrant, T.badRedirect],
  },
  // ======================= everything the ring records (issue 14) ============================
  {
    id: "facts §1 date-range families",
    row: "sleep_time, session, workout, tag, enhanced_tag, rest_mode_period, vO2_max: start_date, end_date, next_token, fields; each has GET /{document_id}",
    tests: ["workout", "session", "enhanced_tag", "tag", "vO2_max", "sleep_time", "rest_mode_period"].map(R.list),
  },
  {
    id: "facts §1 time-series family",
    row: "heartrate, ring_battery_level: start_datetime, end_datetime, next_token, latest (most recent sample only), fields; no single-document route",
    tests: [R.paging("heartrate"), R.paging("ring_battery_level"), R.latest("heartrate"), R.latest("ring_battery_level"), R.notFound, R.fields],
  },
  {
    id: "facts §1 ring_configuration family",
    row: "ring_configuration: only next_token and fields (+ /{document_id})",
    tests: [R.list("ring_configuration"), R.ringParams],
  },
  { id: "facts §1 404 body (new routes)", row: 'single-document routes answer 404 {"detail":"Document not found."}', tests: [R.notFound] },
  {
    id: "facts §2.2 time-series pages",
    row: "heart-rate pages of about 1,000 rows (emulator: RING_EMULATOR_TIMESERIES_PAGE_SIZE, default 1000); filters may be repeated with next_token or left out",
    tests: [R.paging("heartrate"), R.paging("ring_battery_level")],
  },
  {
    id: "facts §2.3 fields anchors (new routes)",
    row: "timestamp always returned on heartrate/battery, id on ring_configuration",
    tests: [R.fields, R.ringParams],
  },
  { id: "facts §2.4 defaults (time series)", row: "a heartrate call without parameters returned about the last 24 h", tests: [R.defaults] },
  {
    id: "facts §2.4 new windows (our choice)",
    row: "windows where the facts are silent: session like workout; enhanced_tag, tag, rest_mode_period end-inclusive on the day; vO2_max on its timestamp; errors as for the other collections",
    tests: [R.winWorkout, R.winDay, R.winVo2, R.errors],
  },
  {
    id: "facts §3.10 heartrate row",
    row: "PublicHeartRateRow: timestamp (UTC), timestamp_unix, bpm, source; irregular spacing, 5-s bursts in workouts",
    tests: [R.shapes, R.paging("heartrate")],
  },
  {
    id: "facts §3.10 battery row",
    row: "ring_battery_level row: timestamp, timestamp_unix, level; charging, in_charger",
    tests: [R.paging("ring_battery_level"), R.latest("ring_battery_level")],
  },
  {
    id: "facts §3.10 documents",
    row: "workout, session, sleep_time, vO2_max, ring_configuration, enhanced_tag, tag, rest_mode_period as specified",
    tests: Object.keys(R_DOCS).map(R.list),
  },
  {
    id: "addendum shapes of the other resources",
    row: "shapes seen in real recorded responses (Dec 2024): heart-rate rows, workouts, sessions, enhanced tags, sleep_time, rest mode, ring_configuration",
    tests: [
      R.shapes,
      R.list("workout"),
      R.list("session"),
      R.list("enhanced_tag"),
      R.list("sleep_time"),
      R.list("rest_mode_period"),
      R.list("ring_configuration"),
    ],
  },
  {
    id: "facts §5.6 scopes of the other resources",
    row: "heartrate → heartrate; workout → workout; session → session; tag → tag / enhanced_tag; daily → sleep_time / rest_mode_period / vO2_max (battery and ring configuration: daily, our choice); missing scope → 403",
    tests: [R.scopeLegacy, R.scopeDev],
  },
  {
    id: "facts §6.1 webhook data types (new)",
    row: "tag, enhanced_tag, workout, session, sleep_time, rest_mode_period, ring_configuration, vo2_max (REST path vO2_max); none for heartrate",
    tests: [R.hookCreate, R.hookUpdate, R.hookSeries],
  },
  {
    id: "arch every V2 data resource",
    row: "every V2 data resource of OpenAPI 1.37 is served, responses validate against its schemas",
    tests: [...Object.keys(R_DOCS).map(R.list), R.paging("heartrate"), R.paging("ring_battery_level")],
  },
  {
    id: "arch control documents (new)",
    row: "GET /_emulator/users/{id}/documents/{name} lists any of them; time-series rows as their samples",
    tests: [R.control],
  },
  {
    id: "arch control sync (new)",
    row: "sync creates or changes these resources too; notifications follow",
    tests: [R.hookCreate, R.hookUpdate, R.hookSeries],
  },
  {
    id: "arch sandbox (new)",
    row: "the sandbox serves fixed sample documents of the new shapes to any bearer token",
    tests: [...Object.keys(R_DOCS).map(R.sandbox), R.sandboxSeries],
  },
];
