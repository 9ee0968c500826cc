// Each agent's last explicit preferences (key: user + agentName) in the NATS KV bucket every router
// replica shares, so the next call ranks the same whichever replica answers it. A value lives
// AGENT_PREFERENCES_TTL_MS after the agent last gave preferences. Next to them, one index per user of
// the agent names it has preferences for (domain/agent-names.ts), written with compare-and-set so
// replicas admitting names at once never exceed the cap; the bucket has a byte limit besides
// (AGENT_PREFERENCES_MAX_BYTES; oldest values dropped first when full).
import { createHash } from "node:crypto";
import type { KV, NatsConnection } from "nats";
import { isLostRevisionRace } from "@agentic/platform";
import { admitAgentName, type AgentNameIndex, type AgentNameLimits } from "../domain/agent-names";
import { isGoal, type Goal } from "../domain/goals";
import type { PreferenceReader, PreferenceStore } from "../domain/ports";
import { PREFERENCES_BUCKET } from "./bucket-names";
import { openKvBucket, storeCall } from "./kv-bucket";
import { bindReadOnly, type BucketBinding } from "./read-only-bucket";

export { PREFERENCES_BUCKET };

/** Compare-and-set rounds an admission tries before the store counts as unavailable (replicas admitting one user's names at once). */
const ADMIT_ATTEMPTS = 5;

/** Hex characters of an agent's key that name it in its user's index (96 bits: 10,000 names stay ~400 KB). */
const AGENT_ID_LENGTH = 24;

interface PreferenceJson {
  userId: string;
  agentName: string;
  goals: string[];
}

export interface PreferenceStoreOptions extends AgentNameLimits {
  replicas: number;
  /** Most bytes the bucket holds (AGENT_PREFERENCES_MAX_BYTES). */
  maxBytes: number;
  /** The clock of admissions (tests). */
  now?: () => number;
}

export async function openPreferenceStore(nc: NatsConnection, opts: PreferenceStoreOptions): Promise<PreferenceStore> {
  const kv = await openKvBucket(nc, PREFERENCES_BUCKET, {
    ttlMs: opts.ttlMs,
    replicas: opts.replicas,
    maxBytes: opts.maxBytes,
    description: "router: each agent's last optimizationPreferences, by user and agentName",
  });
  return new KvPreferenceStore(kv, { maxNames: opts.maxNames, ttlMs: opts.ttlMs }, opts.now ?? Date.now);
}

/** The same bucket, read only (the executor's: it ranks by an agent's remembered goals; recommend remembers them). */
export function openPreferenceReader(nc: NatsConnection): PreferenceReader {
  return new KvPreferenceReader(bindReadOnly(nc, PREFERENCES_BUCKET));
}

class KvPreferenceReader implements PreferenceReader {
  constructor(private readonly bucket: BucketBinding) {}

  async get(userId: string, agentName: string): Promise<readonly Goal[] | undefined> {
    const entry = await storeCall("preference", async () => (await this.bucket())?.get(agentKey(userId, agentName)) ?? null);
    if (!entry || entry.operation !== "PUT") return undefined;
    const value = entry.json<PreferenceJson>();
    // Only known goals come back: a value written by a newer router with a goal this one lacks reads as none.
    const goals = Array.isArray(value.goals) ? value.goals.filter(isGoal) : [];
    return goals.length > 0 ? goals : undefined;
  }
}

class KvPreferenceStore extends KvPreferenceReader implements PreferenceStore {
  constructor(
    private readonly kv: KV,
    private readonly limits: AgentNameLimits,
    private readonly now: () => number,
  ) {
    super(async () => kv);
  }

  /** Remembers the goals; throws AGENT_NAMES_EXHAUSTED (nothing written) for a name beyond the user's cap. */
  async set(userId: string, agentName: string, goals: readonly Goal[]): Promise<void> {
    const key = agentKey(userId, agentName);
    await this.admit(userId, key.slice(0, AGENT_ID_LENGTH));
    const value: PreferenceJson = { userId, agentName, goals: [...goals] };
    await storeCall("preference", () => this.kv.put(key, JSON.stringify(value)));
  }

  /** Records the name in the user's index (compare-and-set), or throws when the user has no room for it. */
  private async admit(userId: string, agentId: string): Promise<void> {
    const key = indexKey(userId);
    for (let attempt = 1; attempt <= ADMIT_ATTEMPTS; attempt++) {
      const entry = await storeCall("preference", () => this.kv.get(key));
      const index: AgentNameIndex = entry && entry.operation === "PUT" ? (entry.json<{ names?: AgentNameIndex }>().names ?? {}) : {};
      const next = admitAgentName(index, agentId, this.now(), this.limits); // throws past the cap
      if (next === undefined) return;
      const data = JSON.stringify({ names: next });
      try {
        // A replica that wrote the index since our read makes this fail; read it again.
        await (entry ? this.kv.update(key, data, entry.revision) : this.kv.create(key, data));
        return;
      } catch (err) {
        // Lost the race: the next round reads the index again. NATS failing is the caller's 503, at once.
        if (!isLostRevisionRace(err)) await storeCall("preference", () => Promise.reject(err));
      }
    }
    await storeCall("preference", () =>
      Promise.reject(new Error(`agent-name index of a user still contended after ${ADMIT_ATTEMPTS} rounds`)),
    );
  }
}

/**
 * The key of one agent: a hash, since user ids and agent names may hold characters a key may not;
 * the user is part of it because two users may both call their agent "alpha_agent".
 */
function agentKey(userId: string, agentName: string): string {
  return createHash("sha256")
    .update(JSON.stringify([userId, agentName]))
    .digest("hex");
}

/** The key of a user's index of agent names (its own prefix: never an agent's key). */
function indexKey(userId: string): string {
  return `names.${createHash("sha256")
    .update(JSON.stringify(["agent-names", userId]))
    .digest("hex")}`;
}
