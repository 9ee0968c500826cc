// API key format and hashing. A key is `aak_` + 32 random base62 characters (about 190 bits), so
// an unsalted SHA-256 is enough to store it: there is nothing to guess or look up in a table.
import { createHash } from "node:crypto";
import { API_KEY_PATTERN, ID_PREFIXES, newId, randomBase62 } from "@agentic/platform/core";
import type { ApiKeyRecord } from "./types";
import type { KeyAgents } from "./key-agents";

/** `aak_`: the platform's API key prefix and its separator. */
export const API_KEY_PREFIX = `${ID_PREFIXES.apiKey}_`;
/** Random characters in a key the ledger creates. */
export const API_KEY_RANDOM_LENGTH = 32;
/** Characters of the key kept in clear for listing ("aak_3fQx"). */
export const API_KEY_VISIBLE_PREFIX_LENGTH = 8;
/** What a well-formed key looks like (bootstrap keys too); shared with the gateway, which checks it first. */
export { API_KEY_PATTERN };

/** A new random API key, e.g. `aak_3fQx...` (shown once, never stored). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBase62(API_KEY_RANDOM_LENGTH);
}

export function isWellFormedApiKey(apiKey: string): boolean {
  return API_KEY_PATTERN.test(apiKey);
}

/** Lowercase hex SHA-256 of the key: the only form in which a key is stored. */
export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey, "utf8").digest("hex");
}

/** The record to store for `apiKey`; it keeps the hash and the visible prefix, never the key. */
export function apiKeyRecord(apiKey: string, userId: string, name: string, now: Date, agents: KeyAgents = {}): ApiKeyRecord {
  return {
    keyId: newId("apiKeyRecord"),
    userId,
    keyHash: hashApiKey(apiKey),
    prefix: apiKey.slice(0, API_KEY_VISIBLE_PREFIX_LENGTH),
    name,
    createdAt: now,
    ...agents,
  };
}
