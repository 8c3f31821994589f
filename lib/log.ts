// JSON-lines logger with levels. Log ids and counts only: never tokens, never health values.
//
// A line is handed to stdout (debug, info) or stderr (warn, error) through lib/process.mjs
// writeLine: never blocking on a stalled reader (past its buffer the line is dropped and
// counted), never throwing when the reader is gone (the stream is closed for good and every
// later line counted). When lines were dropped and the stream takes lines again, the next
// line is preceded by one saying how many. (pino was tried for this and not kept: with a
// stalled reader its destination's flush at exit waits on EAGAIN with a blocking sleep, and the
// process never ended; docs/decisions/0025-a-small-logger-of-its-own.md.)
//
// Values are redacted twice: by key (a field named like a secret), and by shape in every
// string (a bearer token, a personal access token, a JWT, `token=…` in a query or body, a
// secret-named JSON member inside an error message), so that no error message can carry a
// token whatever code wrote it.
import { stdioState, writeLine } from "@/lib/process.mjs";

type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

function threshold(): number {
  const configured = (process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info")) as Level;
  return ORDER[configured] ?? ORDER.info;
}

/** Keys whose values are replaced before a line is written, wherever they appear. */
const REDACT = /token|secret|authorization|password|cookie|code_verifier/i;

/** Secret-shaped text inside any string (an error message, a URL, a response excerpt). */
const SECRET_TEXT: Array<[RegExp, string]> = [
  [/\bBearer\s+[^\s"',;]+/gi, "Bearer [redacted]"],
  [/\brs_pat_[A-Za-z0-9_-]+/g, "rs_pat_[redacted]"],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, "[redacted-jwt]"],
  [/\b((?:access|refresh|id)_token|token|client_secret|code_verifier|code|password|secret)=[^&\s"',;]+/gi, "$1=[redacted]"],
  [/"((?:access|refresh|id)_token|client_secret|code_verifier|password|secret|token)"\s*:\s*"[^"]*"/gi, '"$1":"[redacted]"'],
];

export function redactText(text: string): string {
  let out = text;
  for (const [re, to] of SECRET_TEXT) out = out.replace(re, to);
  return out;
}

function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (value instanceof Error) return redact({ name: value.name, message: value.message }, depth);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = REDACT.test(k) ? "[redacted]" : redact(v, depth + 1);
  return out;
}

/** Drops already told about, per stream (a line says how many were lost since). */
const reported = { stdout: 0, stderr: 0 };

function write(level: Level, fields: Record<string, unknown> | string, msg?: string) {
  if (ORDER[level] < threshold()) return;
  const base =
    typeof fields === "string" ? { msg: redactText(fields) } : { ...(redact(fields) as object), msg: msg === undefined ? undefined : redactText(msg) };
  const name = level === "error" || level === "warn" ? "stderr" : "stdout";
  const time = new Date().toISOString();
  const dropped = stdioState()[name].dropped - reported[name];
  if (dropped > 0 && writeLine(name, JSON.stringify({ level: "warn", time, dropped, msg: "log lines dropped (the reader was slow or gone)" }) + "\n")) {
    reported[name] += dropped;
  }
  writeLine(name, JSON.stringify({ level, time, ...base }) + "\n");
}

export const logger = {
  debug: (f: Record<string, unknown> | string, msg?: string) => write("debug", f, msg),
  info: (f: Record<string, unknown> | string, msg?: string) => write("info", f, msg),
  warn: (f: Record<string, unknown> | string, msg?: string) => write("warn", f, msg),
  error: (f: Record<string, unknown> | string, msg?: string) => write("error", f, msg),
};
