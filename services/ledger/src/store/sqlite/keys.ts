// The SQLite store's API keys: stored once per hash, revoked once, limits replaced whole.
import type { ApiKeyLimits, ApiKeyRecord } from "../../domain/types";
import { toApiKey, type ApiKeyRow } from "./rows";
import { ms, msOrNull, type SqliteDb } from "./sqlite-db";

export class SqliteKeys {
  constructor(private readonly db: SqliteDb) {}

  async insertApiKey(record: ApiKeyRecord): Promise<{ status: "created" | "exists"; record: ApiKeyRecord }> {
    return this.db.transaction(() => {
      const existing = this.apiKeyWhere("key_hash", record.keyHash);
      if (existing) return { status: "exists" as const, record: existing };
      this.db
        .sql(
          `INSERT INTO api_keys (key_id, user_id, key_hash, prefix, name, created_at, revoked_at, agent_name, agent_names)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          record.keyId,
          record.userId,
          record.keyHash,
          record.prefix,
          record.name,
          ms(record.createdAt),
          msOrNull(record.revokedAt),
          record.agentName ?? null,
          record.agentNames?.length ? JSON.stringify(record.agentNames) : null,
        );
      return { status: "created" as const, record: this.apiKeyWhere("key_id", record.keyId)! };
    });
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.db.read(() => this.apiKeyWhere("key_hash", keyHash));
  }

  async getApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    return this.db.read(() => this.apiKeyWhere("key_id", keyId));
  }

  async listApiKeys(userId?: string): Promise<ApiKeyRecord[]> {
    return this.db.read(() => {
      const rows =
        userId === undefined
          ? this.db.sql("SELECT * FROM api_keys ORDER BY created_at, seq").all()
          : this.db.sql("SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at, seq").all(userId);
      return (rows as unknown as ApiKeyRow[]).map(toApiKey);
    });
  }

  async revokeApiKey(keyId: string, now: Date): Promise<ApiKeyRecord | null> {
    return this.db.transaction(() => {
      // The first revoke's time stays.
      this.db.sql("UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL").run(ms(now), keyId);
      return this.apiKeyWhere("key_id", keyId);
    });
  }

  async setApiKeyLimits(keyId: string, limits: ApiKeyLimits | undefined): Promise<ApiKeyRecord | null> {
    return this.db.transaction(() => {
      this.db
        .sql("UPDATE api_keys SET limit_rps = ?, limit_burst = ?, limit_in_flight = ? WHERE key_id = ?")
        .run(limits?.requestsPerSecond ?? null, limits?.burst ?? null, limits?.maxInFlight ?? null, keyId);
      return this.apiKeyWhere("key_id", keyId);
    });
  }

  private apiKeyWhere(column: "key_id" | "key_hash", value: string): ApiKeyRecord | null {
    const row = this.db.sql(`SELECT * FROM api_keys WHERE ${column} = ?`).get(value) as ApiKeyRow | undefined;
    return row ? toApiKey(row) : null;
  }
}
