// Whether one route can be executed now for this caller, and if not, the stable codes of what
// blocks it with readable steps that would lift each block.
import type { Route } from "@agentic/proto/catalog/v1";
import type { RouteHealth } from "./route-health";
import { isGatedRoute, isPendingRoute } from "./route-status";
import { spendLimitAction, type SpendLimit } from "./spend-limits";
import { quotaAction, type QuotaStanding, type QuotaUse } from "./vendor-quota";

/** Stable machine codes, in the order they are reported. */
export const BLOCKING_REQUIREMENTS = [
  "CAPABILITY_GATED",
  "ROUTE_PENDING",
  "ROUTE_UNHEALTHY",
  "VENDOR_QUOTA_EXHAUSTED",
  "FEATURE_UNSUPPORTED",
  "RESOURCE_UNSUPPORTED",
  "REDIRECT_NOT_BROKERED",
  "BYO_CREDENTIALS_REQUIRED",
  "OVER_MAX_PRICE",
  "SPEND_LIMIT_EXCEEDED",
  "CREDITS_REQUIRED",
] as const;
export type BlockingRequirement = (typeof BLOCKING_REQUIREMENTS)[number];

/** The capability a route belongs to, as far as feasibility cares. */
export interface CapabilityRef {
  capabilityKey: string;
  domainKey: string;
  capabilityId: string;
  /** live, recommend_only, planned or pending. */
  status: string;
  /** When it is not live: why it is gated and how an operator may enable it (the catalog's words). */
  gateReason?: string | undefined;
}

/** A resource a byo route runs on that the caller acquires through another capability first. */
export interface OwnedResourceNeed {
  /** Input field naming the acquired resource, e.g. "inboxId". */
  field: string;
  /** What the resource is called, e.g. "inbox". */
  label: string;
  /** Whether the request body names one. */
  present: boolean;
  acquisition: CapabilityRef;
  /** Price of the cheapest acquisition route, in credits. */
  acquisitionPriceCredits: number;
}

export interface FeasibilityContext {
  capability: CapabilityRef;
  /** The caller's spendable balance, in credits; undefined when the wallet was not read (CREDITS_REQUIRED is not assessed). */
  balanceCredits: number | undefined;
  featureAsks: readonly string[];
  /** The most the caller will pay for one execution, in credits; a dearer route is blocked (OVER_MAX_PRICE), not disqualified. */
  maxPriceCredits?: number | undefined;
  health?: RouteHealth | undefined;
  /** The route's vendor quota this window, when it has one and its counters were read. */
  quota?: { use: QuotaUse; standing: QuotaStanding } | undefined;
  /** The caller's spend policies (read with the wallet); a route one would refuse is blocked (SPEND_LIMIT_EXCEEDED). */
  spendLimits?: readonly SpendLimit[] | undefined;
  /** Set for a byo route that runs on a resource acquired first (e.g. an owned inbox). */
  ownedResource?: OwnedResourceNeed | undefined;
  /**
   * Set when the body names an owned resource (an inboxId) this route cannot use: run there, the
   * request would ignore it (an email sent from our domain instead of the inbox), so it must not be picked.
   */
  ignoresNamedResource?: { field: string; label: string; usableBy: readonly string[] } | undefined;
}

export interface Feasibility {
  canExecuteNow: boolean;
  blockingRequirements: BlockingRequirement[];
  nextActions: string[];
  /** Must not be picked at all (feature missing, breaker open), as opposed to "not runnable yet". */
  disqualified: boolean;
}

/** Assesses one route; every applicable block is listed, not just the first. */
export function assessRoute(route: Route, ctx: FeasibilityContext): Feasibility {
  const blocks = new Map<BlockingRequirement, string>();
  const cap = ctx.capability;
  const key = route.routeKey;

  if (cap.status !== "live") {
    blocks.set(
      "CAPABILITY_GATED",
      cap.status === "recommend_only"
        ? `${cap.capabilityKey} is recommend-only: routes can be compared but not executed yet${cap.gateReason ? ` (${cap.gateReason})` : ""}; read its status in the catalog (GET /domains/${cap.domainKey}/capabilities/${cap.capabilityId}) for changes`
        : `${cap.capabilityKey} is ${cap.status}: not executable yet; read its status in the catalog (GET /domains/${cap.domainKey}/capabilities/${cap.capabilityId}) for changes`,
    );
  } else if (isGatedRoute(route)) {
    blocks.set(
      "CAPABILITY_GATED",
      `Route ${key} is mapped but its execution is gated; execute another route, or wait until the catalog lifts the gate`,
    );
  }
  if (isPendingRoute(route)) {
    blocks.set("ROUTE_PENDING", `Route ${key} is ${route.status}: it runs once the catalog marks it live; execute another route meanwhile`);
  }
  if (ctx.health?.breaker === "open") {
    const retryAt = new Date(ctx.health.retryAtMs ?? 0).toISOString();
    const last = ctx.health.lastErrorKind ?? "unknown";
    blocks.set(
      "ROUTE_UNHEALTHY",
      ctx.health.breakerScope === "caller"
        ? `Your last ${ctx.health.consecutiveFailures} calls to route ${key} failed (last: ${last}); it is retried for you after ${retryAt}: check the input against the contract, or execute another route meanwhile`
        : `Route ${key} failed ${ctx.health.consecutiveFailures} calls in a row (last: ${last}); it is retried after ${retryAt}, execute another route meanwhile`,
    );
  }
  if (ctx.quota && (ctx.quota.standing === "exhausted" || ctx.quota.standing === "share_used")) {
    blocks.set("VENDOR_QUOTA_EXHAUSTED", quotaAction(key, ctx.quota.use, ctx.quota.standing));
  }
  const missing = ctx.featureAsks.filter((f) => !route.supportedFeatures.includes(f));
  if (missing.length > 0) {
    blocks.set(
      "FEATURE_UNSUPPORTED",
      `Route ${key} does not support ${missing.join(", ")}; pick a route that does, or drop ${missing.map((f) => `"${f}"`).join(", ")} from the request`,
    );
  }
  const ignored = ctx.ignoresNamedResource;
  if (ignored) {
    blocks.set(
      "RESOURCE_UNSUPPORTED",
      `Route ${key} cannot use the ${ignored.label} "${ignored.field}" names and would ignore it; execute a route of ${ignored.usableBy.join(", ")}, or drop "${ignored.field}"`,
    );
  }
  if (route.routeMode === "redirect") {
    blocks.set(
      "REDIRECT_NOT_BROKERED",
      `Route ${key} is a redirect: Agentic API does not broker it yet; call ${route.providerLabel || route.providerKey} directly, or execute a managed route`,
    );
  }
  if (route.routeMode === "byo") {
    const need = ctx.ownedResource;
    if (!need) {
      blocks.set(
        "BYO_CREDENTIALS_REQUIRED",
        `Route ${key} runs on your own ${route.providerLabel || route.providerKey} account; Agentic API cannot hold your credentials yet, so execute a managed route`,
      );
    } else if (!need.present) {
      const acq = need.acquisition;
      blocks.set(
        "BYO_CREDENTIALS_REQUIRED",
        `Route ${key} sends from ${/^[aeiou]/i.test(need.label) ? "an" : "a"} ${need.label} you own: acquire one with ${acq.capabilityKey} (from ${need.acquisitionPriceCredits} credits, POST /domains/${acq.domainKey}/capabilities/${acq.capabilityId}/execute), then pass its id as "${need.field}"`,
      );
    }
  }
  if (ctx.maxPriceCredits !== undefined && route.routeMode !== "redirect" && route.startingCostCredits > ctx.maxPriceCredits) {
    blocks.set(
      "OVER_MAX_PRICE",
      `Route ${key} costs ${route.startingCostCredits} credits, above maxPriceCredits ${ctx.maxPriceCredits}; raise maxPriceCredits, or execute a cheaper route`,
    );
  }
  const spendAction =
    route.routeMode !== "redirect" && ctx.spendLimits
      ? spendLimitAction(key, route.startingCostCredits, cap.capabilityKey, ctx.spendLimits)
      : undefined;
  if (spendAction) blocks.set("SPEND_LIMIT_EXCEEDED", spendAction);
  // A redirect is paid to the provider directly, so the wallet does not limit it.
  if (ctx.balanceCredits !== undefined && route.routeMode !== "redirect" && ctx.balanceCredits < route.startingCostCredits) {
    blocks.set("CREDITS_REQUIRED", creditsAction(route.startingCostCredits, ctx.balanceCredits));
  }

  const blockingRequirements = BLOCKING_REQUIREMENTS.filter((b) => blocks.has(b));
  return {
    canExecuteNow: blockingRequirements.length === 0,
    blockingRequirements,
    nextActions: blockingRequirements.map((b) => blocks.get(b) as string),
    disqualified: blocks.has("FEATURE_UNSUPPORTED") || blocks.has("ROUTE_UNHEALTHY") || blocks.has("RESOURCE_UNSUPPORTED"),
  };
}

/** The step that funds a wallet short of `neededCredits`. */
export function creditsAction(neededCredits: number, balanceCredits: number): string {
  const missing = Math.max(0, Math.ceil(neededCredits - balanceCredits));
  return `Add ${missing} credits (balance ${balanceCredits}, needed ${neededCredits}): POST /dev/init {"balanceCredits": ${Math.ceil(neededCredits)}} outside production, or top up the wallet`;
}
