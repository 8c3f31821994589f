// JSON-lines logger with levels. Log ids and counts only: never tokens, never health values.
type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

function threshold(): number {
  const configured = (process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info")) as Level;
  return ORDER[configured] ?? ORDER.info;
}

/** Keys whose values are replaced before a line is written, wherever they appear. */
const REDACT = /token|secret|authorization|password|cookie|code_verifier/i;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = REDACT.test(k) ? "[redacted]" : redact(v, depth + 1);
  return out;
}

function write(level: Level, fields: Record<string, unknown> | string, msg?: string) {
  if (ORDER[level] < threshold()) return;
  const base = typeof fields === "string" ? { msg: fields } : { ...(redact(fields) as object), msg };
  const line = JSON.stringify({ level, time: new Date().toISOString(), ...base });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const logger = {
  debug: (f: Record<string, unknown> | string, msg?: string) => write("debug", f, msg),
  info: (f: Record<string, unknown> | string, msg?: string) => write("info", f, msg),
  warn: (f: Record<string, unknown> | string, msg?: string) => write("warn", f, msg),
  error: (f: Record<string, unknown> | string, msg?: string) => write("error", f, msg),
};
