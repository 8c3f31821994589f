// The cycle's requests: a period start or end a person logs (a day and a kind), a change to
// one, the cycle settings (each optional, at least one), an entry's id and a range of days.
// Refusals name the field and why, in words a person reads.
import { z } from "zod";
import { CYCLE_ENTRY_KINDS, type CycleEntryKind, type CycleSettings } from "@/lib/cycle";
import { dayRangeSchema, daySchema } from "@/lib/schemas/requests";

export const cycleEntryKindSchema = z.enum(CYCLE_ENTRY_KINDS, { message: `must be one of ${CYCLE_ENTRY_KINDS.join(", ")}` });

/** A new entry: the day (never after the person's today: the service checks that) and its kind. */
export const cycleEntryInputSchema = z.object({ day: daySchema, kind: cycleEntryKindSchema }) satisfies z.ZodType<{
  day: string;
  kind: CycleEntryKind;
}>;

/** A change to an entry: its day, its kind, or both. */
export const cycleEntryPatchSchema = z
  .object({ day: daySchema.optional(), kind: cycleEntryKindSchema.optional() })
  .refine((p) => p.day !== undefined || p.kind !== undefined, { message: "give a day or a kind to change" });

/** An entry's id as Ringside makes them (a UUID); anything else is no entry. */
export const cycleEntryIdSchema = z.string().min(1, "an entry's id is needed").max(64, "not an entry's id");

/** A change to the cycle settings: any of the three, at least one. */
export const cycleSettingsPatchSchema = z
  .object({
    tracking: z.boolean({ message: "tracking must be true or false" }).optional(),
    hormonalContraception: z.boolean({ message: "hormonal contraception must be true or false" }).optional(),
    pregnant: z.boolean({ message: "pregnant must be true or false" }).optional(),
  })
  .refine((p) => p.tracking !== undefined || p.hormonalContraception !== undefined || p.pregnant !== undefined, {
    message: "give a setting to change",
  }) satisfies z.ZodType<Partial<CycleSettings>>;

/** The days to list entries of: both ends, ordered, within the usual cap. */
export const cycleEntriesRangeSchema = dayRangeSchema;
