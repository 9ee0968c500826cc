// Who a hold's spend counts against: the calling key and, normalized, the agent it acts as.
import { normalizeAgentName } from "@agentic/platform/core";
import type { SpendAttribution } from "./spend-policy";
import { MAX_AGENT_NAME_LENGTH, optionalText, requireId } from "./validate";

/** An agent name as policies compare it (normalizeAgentName); INVALID_ARGUMENT when it breaks the agent-name rule once normalized. */
export function normalizedAgent(raw: string): string {
  return optionalText("agent_name", normalizeAgentName(raw), MAX_AGENT_NAME_LENGTH);
}

/** The spend attribution of a hold request: only with a key (policies are per key), its agent normalized. */
export function spendOf(
  req: { keyId?: string; agentName?: string; capabilityKey?: string },
  executionCapability: string | undefined,
): { spend?: SpendAttribution } {
  if (!req.keyId) return {};
  // A name of invisible characters only is no name: the hold is the key's without an agent.
  const agentName = req.agentName ? normalizedAgent(req.agentName) : "";
  return {
    spend: {
      keyId: requireId("key_id", req.keyId),
      ...(agentName ? { agentName } : {}),
      capabilityKey: optionalText("capability_key", req.capabilityKey || executionCapability || ""),
    },
  };
}
