import { defineResource } from "@/lib/resources/define";

/** PublicDailyCardiovascularAge. The real service may omit `id` (facts §3.7): unique by day. */
export const dailyCardiovascularAge = defineResource({
  name: "daily_cardiovascular_age",
  openapiModel: "PublicDailyCardiovascularAge",
  kind: "daily",
  label: "Cardiovascular age",
  color: "var(--heart)",
  sharedLabel: "Cardiovascular age",
  scope: "daily",
  key: "day",
  note: "The real service may omit `id` here (facts §3.7): unique per person and day.",
  schema: (k) =>
    k.z.looseObject({
      id: k.id.nullish(),
      day: k.day,
      vascular_age: k.optNum,
      pulse_wave_velocity: k.optNum,
    }),
  columns: [
    { name: "vascular_age", type: "int" },
    { name: "pulse_wave_velocity", type: "float" },
  ],
  metrics: {
    "cardio.vascular_age": {
      from: { column: "vascular_age" },
      label: "Cardiovascular age",
      short: "CV age",
      group: "Heart health",
      unit: "years",
      direction: "lower",
      kind: "measure",
      isHeadline: true,
    },
    "cardio.pulse_wave_velocity": {
      from: { column: "pulse_wave_velocity" },
      label: "Pulse wave velocity",
      short: "PWV",
      group: "Heart health",
      unit: "m/s",
      direction: "lower",
      kind: "measure",
      decimals: 2,
    },
  },
});
