// The read API's response schemas (for the OpenAPI document) against the contract's types:
// each assignable to the other, checked by tsc (npm test runs it), so the document cannot drift from what
// the routes answer. The runtime check of real answers is app/api/v1/contract.test.ts.
import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type * as C from "@/lib/api/contract";
import type { ErrorEnvelope } from "@/lib/http/errors";
import type * as res from "@/lib/api/v1/responses";
import type { reportResponseSchema } from "@/lib/api/v1/responses-report";
import type { cycleResponseSchema } from "@/lib/api/v1/responses-cycle";
import type { ApiCycleResponse } from "@/lib/api/contract-cycle";
import type { Report } from "@/lib/metrics/report";

type Out<S extends z.ZodType> = z.output<S>;
/** A is assignable to B and B to A: every answer fits the document, every document-valid value fits the type. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe("response schemas = contract types", () => {
  it("each schema's type is its contract type", () => {
    expectTypeOf<Mutual<Out<typeof res.catalogResponseSchema>, C.ApiCatalogResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.seriesResponseSchema>, C.SeriesResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.todayResponseSchema>, C.TodayResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.dayResponseSchema>, C.ApiDayResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.daysResponseSchema>, C.ApiDaysResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.calendarResponseSchema>, C.CalendarResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.correlationResponseSchema>, C.CorrelationResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.strongestResponseSchema>, C.StrongestResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.tagsResponseSchema>, C.TagsResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.tagComparisonResponseSchema>, C.TagComparisonResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.notesResponseSchema>, C.NotesResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.syncStatusResponseSchema>, C.ApiSyncStatusResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.stateResponseSchema>, C.ApiStateResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof res.signalsResponseSchema>, C.SignalsResponse>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof reportResponseSchema>, Report>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Out<typeof cycleResponseSchema>, ApiCycleResponse>>().toEqualTypeOf<true>();
    expectTypeOf<
      Mutual<
        NonNullable<Extract<Out<typeof res.seriesResponseSchema>, { kind: "numeric" }>["normal"]>,
        NonNullable<Extract<C.SeriesResponse, { kind: "numeric" }>["normal"]>
      >
    >().toEqualTypeOf<true>();
    expectTypeOf<Out<typeof res.errorEnvelopeSchema>["error"]["message"]>().toEqualTypeOf<ErrorEnvelope["error"]["message"]>();
  });
});
