// Which goals apply to a request: the explicit ones (the request's), else the ones the same agent of
// the same user gave last (remembered in the PreferenceStore every replica shares), else the default.
import type { Goal } from "./goals";

/** request: given with this request; agent: remembered for the body's agentName; default: configured. */
export type PreferenceSource = "request" | "agent" | "default";

export interface ResolvedPreferences {
  goals: readonly Goal[];
  source: PreferenceSource;
}

/** The goals of one request: the requested ones, else the agent's remembered ones, else `defaults`. */
export function choosePreferences(
  requested: readonly Goal[] | undefined,
  remembered: readonly Goal[] | undefined,
  defaults: readonly Goal[],
): ResolvedPreferences {
  if (requested && requested.length > 0) return { goals: requested, source: "request" };
  if (remembered && remembered.length > 0) return { goals: remembered, source: "agent" };
  return { goals: defaults, source: "default" };
}

/** Whether the agent's remembered preferences must be read: only when the request names none. */
export const needsRemembered = (requested: readonly Goal[] | undefined, agentName: string | undefined): agentName is string =>
  agentName !== undefined && !(requested && requested.length > 0);
