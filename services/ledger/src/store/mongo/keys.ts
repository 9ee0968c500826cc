// The MongoDB store's API keys: single-document compare-and-set updates (stored once per hash by a
// unique index, revoked once, limits replaced whole).
import type { ApiKeyLimits, ApiKeyRecord } from "../../domain/types";
import { toApiKey } from "./docs";
import { isDuplicateKey, type MongoDb } from "./mongo-db";

export class MongoKeys {
  constructor(private readonly m: MongoDb) {}

  async insertApiKey(record: ApiKeyRecord): Promise<{ status: "created" | "exists"; record: ApiKeyRecord }> {
    const { keyId, ...rest } = record;
    try {
      await this.m.apiKeys.insertOne({ _id: keyId, ...rest });
      return { status: "created", record: { ...record } };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const existing = await this.findApiKeyByHash(record.keyHash);
      if (!existing) throw err;
      return { status: "exists", record: existing };
    }
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const doc = await this.m.apiKeys.findOne({ keyHash });
    return doc ? toApiKey(doc) : null;
  }

  async getApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const doc = await this.m.apiKeys.findOne({ _id: keyId });
    return doc ? toApiKey(doc) : null;
  }

  async listApiKeys(userId?: string): Promise<ApiKeyRecord[]> {
    const docs = await this.m.apiKeys
      .find(userId === undefined ? {} : { userId })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    return docs.map(toApiKey);
  }

  async revokeApiKey(keyId: string, now: Date): Promise<ApiKeyRecord | null> {
    const revoked = await this.m.apiKeys.findOneAndUpdate(
      { _id: keyId, revokedAt: { $exists: false } },
      { $set: { revokedAt: now } },
      { returnDocument: "after" },
    );
    if (revoked) return toApiKey(revoked);
    const doc = await this.m.apiKeys.findOne({ _id: keyId });
    return doc ? toApiKey(doc) : null;
  }

  async setApiKeyLimits(keyId: string, limits: ApiKeyLimits | undefined): Promise<ApiKeyRecord | null> {
    // The whole sub-document is replaced (or removed), never merged: the call says all the limits.
    const update = limits ? { $set: { limits: { ...limits } } } : { $unset: { limits: "" as const } };
    const doc = await this.m.apiKeys.findOneAndUpdate({ _id: keyId }, update, { returnDocument: "after" });
    return doc ? toApiKey(doc) : null;
  }
}
