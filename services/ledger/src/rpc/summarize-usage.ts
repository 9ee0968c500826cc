// SummarizeUsage: a user's charges over a range summed per UTC day, capability, route and agent.
import type { UnaryHandler } from "@agentic/platform";
import type { SummarizeUsageRequest, SummarizeUsageResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function summarizeUsage(ledger: Ledger): UnaryHandler<SummarizeUsageRequest, SummarizeUsageResponse> {
  return async (req) => ledger.summarizeUsage(req.userId, req);
}
