import { createHash } from "node:crypto";
import { apiKeyRecord, generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-keys";

describe("API keys", () => {
  it("are aak_ + 32 base62 characters, all different", () => {
    const keys = Array.from({ length: 1_000 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(/^aak_[0-9A-Za-z]{32}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("are recognised only in that form", () => {
    expect(isWellFormedApiKey(generateApiKey())).toBe(true);
    expect(isWellFormedApiKey(`aak_${"a".repeat(128)}`)).toBe(true);
    for (const bad of [
      "",
      "aak_",
      `aak_${"a".repeat(31)}`,
      `aak_${"a".repeat(129)}`,
      `AAK_${"a".repeat(32)}`,
      `aak_${"a".repeat(31)}-`,
      ` aak_${"a".repeat(32)}`,
    ]) {
      expect(isWellFormedApiKey(bad)).toBe(false);
    }
  });

  it("are stored as their SHA-256 and an 8-character prefix only", () => {
    const key = generateApiKey();
    const record = apiKeyRecord(key, "u1", "laptop", new Date(0));
    expect(record.keyHash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(record.keyHash).toBe(hashApiKey(key));
    expect(record.prefix).toBe(key.slice(0, 8));
    expect(JSON.stringify(record)).not.toContain(key.slice(8));
    expect(record.keyId).toMatch(/^key_/);
  });
});
