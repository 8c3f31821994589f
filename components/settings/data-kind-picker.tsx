import type { DataKind } from "@/lib/auth/api-scopes";
import { CYCLE_DATA_KIND } from "@/lib/cycle";

/**
 * The data kinds to give something that reads the person's data (a token, Home Assistant): one
 * checkbox per kind, named `kinds`. Unless `checked` says otherwise, every kind starts ticked but
 * the cycle, which a person gives only on purpose.
 */
export function DataKindPicker({
  kinds,
  legend,
  checked,
  disabled,
}: {
  kinds: ReadonlyArray<{ kind: DataKind; label: string }>;
  legend: string;
  checked?: readonly DataKind[];
  disabled?: boolean;
}) {
  return (
    <fieldset className="text-sm" disabled={disabled}>
      <legend className="font-medium">{legend}</legend>
      <div className="mt-1 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
        {kinds.map((k) => (
          <label key={k.kind} className="inline-flex items-center gap-2">
            <input
              type="checkbox"
              name="kinds"
              value={k.kind}
              defaultChecked={checked ? checked.includes(k.kind) : k.kind !== CYCLE_DATA_KIND}
              className="h-4 w-4 rounded accent-brand-600"
            />
            {k.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
