import "server-only";
import { logger } from "@/lib/log";

/**
 * Values of the service's closed lists that Ringside does not know yet (a new sleep `type`,
 * stress `day_summary`, resilience `level`, webhook `event_type`, …). The document is kept and
 * the field stored as unknown; each new (collection, field, value) is logged once per process,
 * with nothing but the value itself — and only when it looks like an enum word, so nothing
 * else from a document (no health value) can reach the log.
 */

const MAX_REMEMBERED = 1_000;
const seen = new Set<string>();

/** The value as it may appear in a log line. */
export function loggableValue(value: string): string {
  return /^[A-Za-z0-9_.:-]{1,64}$/.test(value) ? value : "(not a short word)";
}

/** Logs each new (collection, field, value) once; returns how many were new. */
export function noteUnknownValues(collection: string, values: ReadonlyArray<{ field: string; value: string }> | undefined): number {
  if (!values || values.length === 0) return 0;
  let fresh = 0;
  for (const { field, value } of values) {
    const shown = loggableValue(value);
    const key = `${collection}\u001f${field}\u001f${shown}`;
    if (seen.has(key)) continue;
    if (seen.size >= MAX_REMEMBERED) seen.clear();
    seen.add(key);
    fresh += 1;
    logger.warn({ collection, field, value: shown }, "the ring service sent a value Ringside does not know yet; stored as unknown");
  }
  return fresh;
}

/** Tests: forget what was logged. */
export function resetUnknownValues(): void {
  seen.clear();
}
