// Which goals apply to a request: the body's optimizationPreferences, else the ones the same agent
// of the same user sent last (bounded memory, per replica), else the configured default.
import type { Goal } from "./goals";
import { LruMap } from "./lru";

/** request: from the body; agent: remembered for the body's agentName; default: configured. */
export type PreferenceSource = "request" | "agent" | "default";

export interface ResolvedPreferences {
  goals: readonly Goal[];
  source: PreferenceSource;
}

/** Remembers the last preferences each (user, agentName) sent, for at most `capacity` agents. */
export class AgentPreferenceMemory {
  private readonly memory: LruMap<string, readonly Goal[]>;

  constructor(capacity: number) {
    this.memory = new LruMap(capacity);
  }

  /** The goals of one request: the request's, else the agent's remembered ones, else `defaults`. */
  resolve(
    userId: string,
    agentName: string | undefined,
    requested: readonly Goal[] | undefined,
    defaults: readonly Goal[],
  ): ResolvedPreferences {
    if (requested && requested.length > 0) return { goals: requested, source: "request" };
    const remembered = agentName === undefined ? undefined : this.memory.get(agentKey(userId, agentName));
    if (remembered) return { goals: remembered, source: "agent" };
    return { goals: defaults, source: "default" };
  }

  /** Remembers the preferences an agent sent (call once its request succeeded). */
  remember(userId: string, agentName: string, goals: readonly Goal[]): void {
    this.memory.set(agentKey(userId, agentName), [...goals]);
  }
}

/** Agents are keyed by user too: two users may both call their agent "alpha_agent". */
function agentKey(userId: string, agentName: string): string {
  return `${userId}\u0000${agentName}`;
}
