// What intent routing finds, and how its answer becomes the RouteTask response.
import type { IntentAnswer } from "@agentic/intent";
import type { RouteTaskResponse, TaskMatch } from "@agentic/proto/router/v1";

export function toRouteTaskResponse(answer: IntentAnswer): RouteTaskResponse {
  const c = answer.constraints;
  return {
    task: answer.task,
    matches: answer.matches.map((m): TaskMatch => ({
      capabilityKey: m.capabilityKey,
      domainKey: m.domainKey,
      capabilityId: m.capabilityId,
      label: m.label,
      status: m.status,
      score: m.score,
      why: m.why,
      ...(m.startingPriceCredits !== null ? { startingPriceCredits: m.startingPriceCredits } : {}),
      ...(m.contractPath !== null ? { contractPath: m.contractPath } : {}),
      ...(m.recommendPath !== null ? { recommendPath: m.recommendPath } : {}),
    })),
    abstained: answer.abstained,
    constraints: {
      optimizationPreferences: [...c.optimizationPreferences],
      ...(c.maxPriceCredits !== undefined ? { maxPriceCredits: c.maxPriceCredits } : {}),
      ...(c.provider !== undefined ? { provider: c.provider } : {}),
      fields: { ...c.fields },
    },
    catalogVersion: answer.catalogVersion,
  };
}
