// Multi-step paths to executing a capability: acquire an owned resource first and then run on it
// (e.g. buy an inbox, then send from it), or run a byo route on the caller's own provider account.
// Both are driven by catalog routes: byo routes give bring_your_own_key workflows; owned-resource
// workflows pair a byo route with a route of the acquiring capability by the same provider.
import type { Route } from "@agentic/proto/catalog/v1";
import type { WorkflowRecommendation } from "@agentic/proto/router/v1";
import type { OwnedResourceRelationship } from "./acquisitions";
import {
  BLOCKING_REQUIREMENTS,
  assessRoute,
  creditsAction,
  type BlockingRequirement,
  type CapabilityRef,
  type Feasibility,
} from "./feasibility";
import type { RouteHealth } from "./route-health";

/** The acquiring side of an owned-resource relationship, as read from the catalog. */
export interface Acquisition {
  relationship: OwnedResourceRelationship;
  capability: CapabilityRef;
  routes: readonly Route[];
}

/** An acquisition route paired with the byo route that runs on what it acquires. */
export interface OwnedResourcePair {
  acquisitionRoute: Route;
  executeRoute: Route;
}

export interface WorkflowContext {
  capability: CapabilityRef;
  /** Undefined when the wallet was not read (CREDITS_REQUIRED is not assessed). */
  balanceCredits: number | undefined;
  featureAsks: readonly string[];
  /** Live health of the routes, read once per request; absent without traffic. */
  health: ReadonlyMap<string, RouteHealth>;
  /** Whether the body names the acquired resource (e.g. inboxId). */
  resourcePresent: boolean;
}

/**
 * Pairs each byo route of the capability with the best route of the acquiring capability from the
 * same provider (fewest blocks, then cheapest, then route key). Keyed by the byo route's key.
 */
export function pairOwnedResourceRoutes(
  routes: readonly Route[],
  acquisition: Acquisition,
  ctx: WorkflowContext,
): Map<string, OwnedResourcePair> {
  const pairs = new Map<string, OwnedResourcePair>();
  for (const executeRoute of routes.filter((r) => r.routeMode === "byo")) {
    const options = acquisition.routes
      .filter((r) => r.providerKey === executeRoute.providerKey)
      .map((r) => ({ route: r, blocks: assessAcquisition(r, acquisition, ctx).blockingRequirements.length }))
      .sort(
        (a, b) =>
          a.blocks - b.blocks ||
          a.route.startingCostCredits - b.route.startingCostCredits ||
          (a.route.routeKey < b.route.routeKey ? -1 : 1),
      );
    if (options[0]) pairs.set(executeRoute.routeKey, { acquisitionRoute: options[0].route, executeRoute });
  }
  return pairs;
}

/** The acquire-then-run workflow of one pair. Credits are checked against the whole first run. */
export function ownedResourceWorkflow(pair: OwnedResourcePair, acquisition: Acquisition, ctx: WorkflowContext): WorkflowRecommendation {
  const { acquisitionRoute: acq, executeRoute: exe } = pair;
  const rel = acquisition.relationship;
  const acqPrice = acq.startingCostCredits;
  const exePrice = exe.startingCostCredits;
  const total = acqPrice + exePrice;
  const acqCheck = assessAcquisition(acq, acquisition, ctx);
  // The workflow supplies the resource, and credits are checked against the total below.
  const exeCheck = assessRoute(exe, {
    capability: ctx.capability,
    balanceCredits: Number.POSITIVE_INFINITY,
    featureAsks: ctx.featureAsks,
    health: ctx.health.get(exe.routeKey),
    ownedResource: undefined,
  });
  const blocks = merge(acqCheck, withoutCodes(exeCheck, ["BYO_CREDENTIALS_REQUIRED"]));
  if (ctx.balanceCredits !== undefined && ctx.balanceCredits < total)
    blocks.set("CREDITS_REQUIRED", creditsAction(total, ctx.balanceCredits));

  const managed = acq.routeMode === "managed";
  const reasons = [
    managed
      ? `the ${rel.resourceLabel} is acquired through a managed route, so Agentic API runs it afterwards: no credentials of yours are needed`
      : `the ${rel.resourceLabel} is acquired through a ${acq.routeMode} route and stays yours to operate`,
    `first run ${total} credits in total (${acqPrice} + ${exePrice}), then ${exePrice} credits per run`,
  ];
  if (ctx.resourcePresent)
    reasons.push(`the request already names an ${rel.resourceLabel} ("${rel.resourceField}"), so the acquisition step can be skipped`);

  return finish(
    {
      workflowType: rel.workflowType,
      summary: `Acquire an ${rel.resourceLabel} with ${acquisition.capability.capabilityKey} on ${acq.routeKey} (${acqPrice} credits), then run ${ctx.capability.capabilityKey} from it on ${exe.routeKey} (${exePrice} credits per run, "${rel.resourceField}" set)`,
      managedAfterAcquisition: managed,
      acquisitionCapabilityKey: acquisition.capability.capabilityKey,
      acquisitionRouteKey: acq.routeKey,
      acquisitionProvider: acq.providerKey,
      acquisitionPriceCredits: acqPrice,
      executeRouteKey: exe.routeKey,
      executeProvider: exe.providerKey,
      executePriceCredits: exePrice,
      estimatedFirstExecutionTotalCredits: total,
      recurringExecutionCredits: exePrice,
      reasons,
    },
    blocks,
  );
}

/** The bring-your-own-key workflow of a byo route that no acquisition covers. */
export function byoKeyWorkflow(route: Route, feasibility: Feasibility, ctx: WorkflowContext): WorkflowRecommendation {
  const price = route.startingCostCredits;
  const provider = route.providerLabel || route.providerKey;
  return finish(
    {
      workflowType: "bring_your_own_key",
      summary: `Run ${ctx.capability.capabilityKey} on your own ${provider} account through ${route.routeKey} (${price} credits per run)`,
      managedAfterAcquisition: false,
      executeRouteKey: route.routeKey,
      executeProvider: route.providerKey,
      executePriceCredits: price,
      estimatedFirstExecutionTotalCredits: price,
      recurringExecutionCredits: price,
      reasons: [`uses your own ${provider} credentials; Agentic API does not hold caller credentials yet`],
    },
    merge(feasibility),
  );
}

/** Fewest blocks first, then the cheapest first run, then the execute route key. */
export function compareWorkflows(a: WorkflowRecommendation, b: WorkflowRecommendation): number {
  return (
    a.blockingRequirements.length - b.blockingRequirements.length ||
    (a.estimatedFirstExecutionTotalCredits ?? 0) - (b.estimatedFirstExecutionTotalCredits ?? 0) ||
    ((a.executeRouteKey ?? "") < (b.executeRouteKey ?? "") ? -1 : (a.executeRouteKey ?? "") > (b.executeRouteKey ?? "") ? 1 : 0)
  );
}

function assessAcquisition(route: Route, acquisition: Acquisition, ctx: WorkflowContext): Feasibility {
  // Credits are checked against the whole workflow by the caller, not per step.
  return assessRoute(route, {
    capability: acquisition.capability,
    balanceCredits: Number.POSITIVE_INFINITY,
    featureAsks: [],
    health: ctx.health.get(route.routeKey),
  });
}

type Blocks = Map<BlockingRequirement, string>;

function merge(...checks: Feasibility[]): Blocks {
  const blocks: Blocks = new Map();
  for (const check of checks) {
    check.blockingRequirements.forEach((code, i) => {
      const action = check.nextActions[i] as string;
      const prior = blocks.get(code);
      blocks.set(code, prior && prior !== action ? `${prior}; ${action}` : action);
    });
  }
  return blocks;
}

function withoutCodes(check: Feasibility, codes: BlockingRequirement[]): Feasibility {
  const keep = check.blockingRequirements.map((c, i) => [c, check.nextActions[i] as string] as const).filter(([c]) => !codes.includes(c));
  return { ...check, blockingRequirements: keep.map(([c]) => c), nextActions: keep.map(([, a]) => a) };
}

function finish(base: Omit<WorkflowRecommendation, "blockingRequirements" | "nextActions">, blocks: Blocks): WorkflowRecommendation {
  const codes = BLOCKING_REQUIREMENTS.filter((c) => blocks.has(c));
  return { ...base, blockingRequirements: codes, nextActions: codes.map((c) => blocks.get(c) as string) };
}
