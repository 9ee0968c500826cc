// Each agent's last explicit preferences (key: user + agentName) in the NATS KV bucket every router
// replica shares, so the next call ranks the same whichever replica answers it. A value lives
// AGENT_PREFERENCES_TTL_MS after the agent last gave preferences.
import { createHash } from "node:crypto";
import type { KV, NatsConnection } from "nats";
import { isGoal, type Goal } from "../domain/goals";
import type { PreferenceStore } from "../domain/ports";
import { openKvBucket, storeCall } from "./kv-bucket";

export const PREFERENCES_BUCKET = "router_preferences";

interface PreferenceJson {
  userId: string;
  agentName: string;
  goals: string[];
}

export async function openPreferenceStore(nc: NatsConnection, opts: { ttlMs: number; replicas: number }): Promise<PreferenceStore> {
  const kv = await openKvBucket(nc, PREFERENCES_BUCKET, {
    ttlMs: opts.ttlMs,
    replicas: opts.replicas,
    description: "router: each agent's last optimizationPreferences, by user and agentName",
  });
  return new KvPreferenceStore(kv);
}

class KvPreferenceStore implements PreferenceStore {
  constructor(private readonly kv: KV) {}

  async get(userId: string, agentName: string): Promise<readonly Goal[] | undefined> {
    const entry = await storeCall("preference", () => this.kv.get(agentKey(userId, agentName)));
    if (!entry || entry.operation !== "PUT") return undefined;
    const value = entry.json<PreferenceJson>();
    // Only known goals come back: a value written by a newer router with a goal this one lacks reads as none.
    const goals = Array.isArray(value.goals) ? value.goals.filter(isGoal) : [];
    return goals.length > 0 ? goals : undefined;
  }

  async set(userId: string, agentName: string, goals: readonly Goal[]): Promise<void> {
    const value: PreferenceJson = { userId, agentName, goals: [...goals] };
    await storeCall("preference", () => this.kv.put(agentKey(userId, agentName), JSON.stringify(value)));
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
