import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  decryptToken,
  decryptWithKey,
  encryptToken,
  encryptWithKey,
  isEncryptedToken,
  parseTokenKey,
  TokenDecryptError,
  TokenKeyError,
} from "@/lib/ring/crypto";

describe("token encryption (AES-256-GCM)", () => {
  it("round-trips and never contains the plain token", () => {
    const plain = "AbCdEf0123456789ZyXw";
    const stored = encryptToken(plain);
    expect(isEncryptedToken(stored)).toBe(true);
    expect(stored).not.toContain(plain);
    expect(decryptToken(stored)).toBe(plain);
  });
  it("uses a fresh IV each time", () => {
    expect(encryptToken("same")).not.toBe(encryptToken("same"));
  });
  it("rejects a tampered value or the wrong key without revealing anything", () => {
    const key = crypto.randomBytes(32);
    const stored = encryptWithKey("secret-token", key);
    const parts = stored.split(":");
    const data = Buffer.from(parts[3]!, "base64url");
    data[0] = data[0]! ^ 1;
    const tampered = [parts[0], parts[1], parts[2], data.toString("base64url")].join(":");
    expect(() => decryptWithKey(tampered, key)).toThrow(TokenDecryptError);
    expect(() => decryptWithKey(stored, crypto.randomBytes(32))).toThrow(TokenDecryptError);
    expect(() => decryptWithKey("plain-text-token", key)).toThrow(TokenDecryptError);
    try {
      decryptWithKey(stored, crypto.randomBytes(32));
    } catch (e) {
      expect((e as Error).message).not.toContain("secret-token");
    }
  });
  it("reads 32-byte keys as hex, base64 and base64url", () => {
    const raw = crypto.randomBytes(32);
    expect(parseTokenKey(raw.toString("hex")).equals(raw)).toBe(true);
    expect(parseTokenKey(raw.toString("base64")).equals(raw)).toBe(true);
    expect(parseTokenKey(raw.toString("base64url")).equals(raw)).toBe(true);
    expect(() => parseTokenKey("short")).toThrow(TokenKeyError);
    expect(() => parseTokenKey("zz".repeat(32))).toThrow(TokenKeyError);
  });
});
