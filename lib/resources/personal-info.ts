import { defineResource } from "@/lib/resources/define";

/**
 * PersonalInfoResponse: a bare object, one per person, taken on connect and daily. `id` is
 * required by the spec; a snapshot without it keeps the ring account Ringside already knows
 * (lib/sync/engine/events.ts), and sign-in (which needs it to know who connects) checks it itself.
 * `email` comes only with the email scope.
 */
export const personalInfo = defineResource({
  name: "personal_info",
  openapiModel: "PersonalInfoResponse",
  kind: "snapshot",
  label: "Personal details",
  color: null,
  sharedLabel: "Age, sex, height and weight",
  scope: "personal",
  schema: (k) => k.optNumbers(["age", "weight", "height"]).extend({ id: k.id.nullish(), biological_sex: k.optText, email: k.optText }),
  columns: [
    { name: "age", type: "int" },
    { name: "weight", type: "float" },
    { name: "height", type: "float" },
    { name: "biological_sex", type: "text" },
    { name: "email", type: "text" },
  ],
  metrics: {},
});
