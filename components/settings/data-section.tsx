// Placeholder: replaced by the feature that owns the "data" settings section.
export function DataSection() {
  return null;
}
