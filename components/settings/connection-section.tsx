// Placeholder: replaced by the feature that owns the "connection" settings section.
export function ConnectionSection() {
  return null;
}
