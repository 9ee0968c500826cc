// The parts of the REST API's answers the console reads (the OpenAPI document at /openapi.json has them whole).
export interface SpendPolicy {
  keyId: string;
  agentName?: string;
  otherAgents?: boolean;
  reset: string;
  budgetCredits?: number;
  maxPriceCredits?: number;
  spentCredits: number;
  heldCredits: number;
  remainingCredits?: number;
  periodStart?: string;
  resetsAt: string | null;
  capabilityCaps: Array<{ capabilityKey: string; maxCredits?: number; maxCount?: number; spentCredits: number; count: number }>;
}

export interface Wallet {
  userId: string;
  balanceCredits: number;
  reservedCredits: number;
  spendPolicies: SpendPolicy[];
}

export interface UsageItem {
  id: string;
  kind: string;
  createdAt?: string;
  capabilityKey?: string;
  routeKey?: string;
  provider?: string;
  status?: string;
  creditsCharged: number;
  amountCredits?: number;
  durationMs?: number;
  agentName?: string;
  errorCode?: string;
  reason?: string;
  reference?: string;
  traceId?: string;
  decision?: { executionId?: string };
}

export interface UsagePage {
  items: UsageItem[];
  nextCursor: string | null;
}

export interface SpendSummary {
  from: string;
  to: string;
  totalCredits: number;
  count: number;
  byDay: Array<{ day: string; credits: number; count: number }>;
  byCapability: Array<{ capabilityKey: string; credits: number; count: number }>;
  byRoute: Array<{ routeKey: string; credits: number; count: number }>;
  /** agentName is absent for charges made without an Agent-Name. */
  byAgent: Array<{ agentName?: string; credits: number; count: number }>;
}

/** GET /overview: the three answers the Overview shows, in one. */
export interface Overview {
  wallet: Wallet;
  spend: SpendSummary;
  latestCharges: UsagePage;
}

export interface Attempt {
  routeKey: string;
  provider?: string;
  outcome: string;
  latencyMs?: number;
  vendorMayHaveActed?: boolean;
  errorCode?: string;
}

export interface Execution {
  executionId: string;
  state: string;
  indeterminate: boolean;
  capabilityKey: string;
  idempotencyKey?: string;
  createdAt?: string;
  completedAt?: string;
  creditsCharged?: number;
  attempts: Array<{
    holdId: string;
    routeKey: string;
    heldCredits: number;
    state: string;
    chargedCredits: number;
    createdAt?: string;
    settledAt?: string;
  }>;
  result?: {
    httpStatus: number;
    body: { decision?: { servedRouteKey?: string; attempts?: Attempt[] }; code?: string; hint?: string; error?: string };
  };
}

export interface Domain {
  domainKey: string;
  label?: string;
  description?: string;
  status?: string;
}

export interface Capability {
  capabilityKey: string;
  capabilityId: string;
  domainKey: string;
  label?: string;
  description?: string;
  status: string;
  startingPriceCredits?: number;
}

export interface ContractField {
  name: string;
  type: string;
  required: boolean;
  format?: string;
  enumValues?: string[];
  itemsType?: string;
  maxLength?: number;
  notes?: string[];
}

export interface Contract {
  domainKey: string;
  capabilityKey: string;
  capabilityId: string;
  contractStatus: string;
  execute?: { status: string; fields: ContractField[]; requestExample?: Record<string, unknown> };
}

export interface Candidate {
  provider: string;
  routeKey: string;
  canExecuteNow: boolean;
  score?: number;
  priceCredits?: number;
  blockingRequirements?: string[];
  unavailableReasonCode?: string;
  reasons?: string[];
}

export interface Recommendation {
  recommendationId?: string;
  recommendationExpiresAt?: string;
  canExecuteNow: boolean;
  bestExecutableRouteKey?: string;
  blockingRequirements?: string[];
  candidates: Candidate[];
}
