// Placeholder: replaced by the feature that owns the "preferences" settings section.
export function PreferencesSection() {
  return null;
}
