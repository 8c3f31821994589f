// Placeholder: replaced by the feature that owns the "sync" settings section.
export function SyncSection() {
  return null;
}
