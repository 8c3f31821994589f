import "server-only";
import crypto from "node:crypto";
import { requireSecret } from "@/lib/secrets";

/**
 * Encryption at rest for the ring service's OAuth tokens: AES-256-GCM with a random 96-bit
 * IV per value and a fixed associated-data label, stored as "v1:<iv>:<tag>:<ciphertext>"
 * (each part base64url). The key is the "token-encryption-key" secret (TOKEN_ENCRYPTION_KEY,
 * or generated in DATA_DIR on first start): 32 bytes as 64 hex characters or as base64 /
 * base64url. Plain tokens never reach SQLite and never appear in logs or errors.
 */

const VERSION = "v1";
const AAD = Buffer.from("ringside:oauth-token:v1");

export class TokenKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenKeyError";
  }
}

/** A stored value that cannot be decrypted (wrong key, damaged, not ours). No token text inside. */
export class TokenDecryptError extends Error {
  constructor(message = "A stored token could not be decrypted (the encryption key may have changed).") {
    super(message);
    this.name = "TokenDecryptError";
  }
}

/** Parses a 32-byte key written as 64 hex characters or as base64/base64url (43 or 44 characters). */
export function parseTokenKey(text: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const normal = value.replaceAll("-", "+").replaceAll("_", "/").replace(/=?$/, "=");
    const key = Buffer.from(normal, "base64");
    if (key.length === 32) return key;
  }
  throw new TokenKeyError("The token-encryption key must be 32 bytes: 64 hex characters or 43/44 base64 characters.");
}

let cachedKey: { source: string; key: crypto.KeyObject } | null = null;

/** The key as a key object, prepared once per key (a Buffer is turned into one on every use). */
function currentKey(): crypto.KeyObject {
  const source = requireSecret("token-encryption-key");
  if (cachedKey?.source === source) return cachedKey.key;
  const key = crypto.createSecretKey(parseTokenKey(source));
  cachedKey = { source, key };
  return key;
}

/** Encrypts with an explicit key (tests and the e2e decrypt helper use this). */
export function encryptWithKey(plain: string, key: Buffer | crypto.KeyObject): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(AAD);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), data.toString("base64url")].join(":");
}

export function decryptWithKey(stored: string, key: Buffer | crypto.KeyObject): string {
  const parts = stored.split(":");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new TokenDecryptError("A stored token is not in the expected format.");
  const [, ivText, tagText, dataText] = parts as [string, string, string, string];
  try {
    const iv = Buffer.from(ivText, "base64url");
    const tag = Buffer.from(tagText, "base64url");
    if (iv.length !== 12 || tag.length !== 16) throw new Error("bad lengths");
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAAD(AAD);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(dataText, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new TokenDecryptError();
  }
}

/** True for values in the stored (encrypted) format. */
export function isEncryptedToken(value: string): boolean {
  return /^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]*$/.test(value);
}

export function encryptToken(plain: string): string {
  return encryptWithKey(plain, currentKey());
}

export function decryptToken(stored: string): string {
  return decryptWithKey(stored, currentKey());
}
