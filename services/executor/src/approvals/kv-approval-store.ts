// Approvals in a JetStream KV bucket the executor replicas share (executor_approvals): one JSON record
// per approval id, file-backed, kept a day (an approval lives minutes; a used or expired one stays
// readable as such until then), bounded in bytes with the oldest dropped first. "Used" is a
// revision-checked update, so of two calls racing with one approval exactly one wins.
import { DiscardPolicy, StorageType, type KV, type NatsConnection } from "nats";
import { isLostRevisionRace } from "@agentic/platform";
import type { ApprovalRecord, ApprovalStore } from "../domain/ports";

export const APPROVALS_BUCKET = "executor_approvals";
/** How long a record is kept after its last write: far beyond any approval's life. */
const KEEP_MS = 24 * 60 * 60_000;
/** JetStream's "wrong last sequence": the record changed since it was read. */
interface StoredApproval {
  approvalId: string;
  userId: string;
  requiredBy: string;
  subject: string;
  issuedAt: string;
  expiresAt: string;
  usedAt?: string;
}

/** Opens (creating when missing) the bucket, then the store on it. */
export async function createKvApprovalStore(nc: NatsConnection, opts: { replicas: number; maxBytes: number }): Promise<ApprovalStore> {
  const options = {
    ttl: KEEP_MS,
    history: 1,
    replicas: opts.replicas,
    max_bytes: opts.maxBytes,
    storage: StorageType.File,
    description: "Approvals the executor issued (broadcast quotes a person approves), used once",
  };
  // Two replicas starting together: the loser's create fails; it then binds the winner's bucket.
  const kv = await nc
    .jetstream()
    .views.kv(APPROVALS_BUCKET, options)
    .catch(() => nc.jetstream().views.kv(APPROVALS_BUCKET, options));
  const { streamInfo } = await kv.status();
  if (streamInfo.config.discard !== DiscardPolicy.Old || streamInfo.config.max_bytes !== opts.maxBytes) {
    // A full bucket drops its oldest records (KV buckets refuse new writes by default); the running configuration wins.
    const jsm = await nc.jetstreamManager();
    await jsm.streams.update(streamInfo.config.name, { ...streamInfo.config, max_bytes: opts.maxBytes, discard: DiscardPolicy.Old });
  }
  return kvApprovalStore(kv);
}

function kvApprovalStore(kv: KV): ApprovalStore {
  const encode = ({ usedAt, ...r }: ApprovalRecord) =>
    JSON.stringify({
      ...r,
      issuedAt: r.issuedAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      ...(usedAt ? { usedAt: usedAt.toISOString() } : {}),
    } satisfies StoredApproval);
  return {
    async issue(record) {
      await kv.create(record.approvalId, encode(record));
    },
    async get(approvalId) {
      const entry = await kv.get(approvalId);
      if (!entry || entry.operation !== "PUT") return undefined;
      const s = entry.json<StoredApproval>();
      return {
        record: {
          approvalId: s.approvalId,
          userId: s.userId,
          requiredBy: s.requiredBy,
          subject: s.subject,
          issuedAt: new Date(s.issuedAt),
          expiresAt: new Date(s.expiresAt),
          ...(s.usedAt ? { usedAt: new Date(s.usedAt) } : {}),
        },
        revision: entry.revision,
      };
    },
    async markUsed(record, revision, usedAt) {
      try {
        return await kv.update(record.approvalId, encode({ ...record, usedAt }), revision);
      } catch (err) {
        if (isLostRevisionRace(err)) return undefined;
        throw err;
      }
    },
    async markUnused({ usedAt: _usedAt, ...unused }, revision) {
      try {
        await kv.update(unused.approvalId, encode(unused), revision);
        return true;
      } catch (err) {
        if (isLostRevisionRace(err)) return false;
        throw err;
      }
    },
  };
}
