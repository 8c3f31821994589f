import crypto from "node:crypto";
import { E2E_TOKEN_KEY } from "./ports";

/** The e2e apps encrypt tokens with E2E_TOKEN_KEY (AES-256-GCM, "v1:iv:tag:data"): decrypt to check them at the emulator. */
export function decryptStoredToken(stored: string): string {
  const [v, iv, tag, data] = stored.split(":");
  if (v !== "v1" || !iv || !tag || !data) throw new Error("not a v1 encrypted token");
  const d = crypto.createDecipheriv("aes-256-gcm", Buffer.from(E2E_TOKEN_KEY, "hex"), Buffer.from(iv, "base64url"));
  d.setAAD(Buffer.from("ringside:oauth-token:v1"));
  d.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([d.update(Buffer.from(data, "base64url")), d.final()]).toString("utf8");
}
