// Placeholder: replaced by the feature that owns the "household" settings section.
export function HouseholdSection() {
  return null;
}
