import { defineResource } from "@/lib/resources/define";

/**
 * The ring's menstrual cycle phases, one document a day (scope `reproductive_cycle`). Not in the
 * published OpenAPI document: its fields are known from one public client only (`cycle_day`,
 * `phase`, `predicted`), so every field but the day is optional and read only when it has the
 * expected type. `phase` is stored as the text the service sent, whatever the value (no closed
 * list is known); the raw document keeps every field, known or not. Unique by day: the id may
 * be missing, like cardiovascular age's. No webhook data type is known for it: the trailing poll
 * keeps it current.
 */
export const dailyCyclePhases = defineResource({
  name: "daily_cycle_phases",
  openapiModel: "DailyCyclePhasesModel",
  kind: "daily",
  label: "Cycle phases",
  color: "var(--chart-4)",
  sharedLabel: "Menstrual cycle phases",
  scope: "reproductive_cycle",
  webhookDataType: null,
  key: "day",
  note: "Not in the published OpenAPI document (fields a guess): unique per person and day, every field optional, phase kept as sent.",
  schema: (k) =>
    k.z.looseObject({
      id: k.id.nullish(),
      day: k.day,
      cycle_day: k.z.unknown().optional(),
      phase: k.z.unknown().optional(),
      predicted: k.z.unknown().optional(),
    }),
  columns: [
    { name: "cycle_day", type: "int" },
    { name: "phase", type: "text" },
    { name: "predicted", type: "bool" },
  ],
  metrics: {},
});
