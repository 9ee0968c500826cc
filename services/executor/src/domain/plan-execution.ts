// Planning of one execution: read the capability, validate the body against its execute contract,
// pick and order the routes (pins, the router's ranking, what this executor can run), and build each
// route's provider request. Nothing here holds credits or calls a provider.
import { invalidArgument } from "@agentic/platform/core";
import type { OperationContract, Route } from "@agentic/proto/catalog/v1";
import type { RecommendationCandidate } from "@agentic/proto/router/v1";
import { dependencyOpts } from "./deadline";
import { asAppError, capabilityGated, invalidInput } from "./errors";
import { BodyShapeError, readExecuteBody, splitControls } from "./execute-body";
import type { CallBudget, ExecuteCommand, Execution, PreparedRoute } from "./execution";
import { vendorIdempotencyKey } from "./idempotency";
import { checkOwnedResources, routesUsingResources } from "./owned-resources";
import type { ExecutorDeps } from "./ports";
import { modelOf, quote, QuoteRefusal, unboundedBill } from "./pricing";
import { ProviderError } from "./provider-port";
import { capabilityRefusal, needsRanking, planRoutes, routesForModel, type RouteReadiness } from "./route-plan";
import { validateInput } from "./validate-input";

/** What a route without the catalog's readiness is taken as: not executable (fail closed). */
const READINESS_UNKNOWN = { executable: false, blockedBy: "ROUTE_PENDING", reason: "the catalog did not say it can run" } as const;

/** The planner: `plan(cmd, executionId, budget)` resolves the execution to run, or throws the refusal. */
export function createPlanner(deps: ExecutorDeps) {
  const { logger } = deps;
  const depOpts = (budget: CallBudget) => dependencyOpts(deps.settings, budget);
  // unboundedBill per route of each contract the catalog cache handed out (the same objects per catalog version).
  const billChecks = new WeakMap<OperationContract, Map<string, string[]>>();

  /** Why a route on our credentials could be billed above its hold (empty: it cannot); logged once per catalog version. */
  function billProblems(route: Route, execute: OperationContract): string[] {
    const checked = billChecks.get(execute) ?? new Map<string, string[]>();
    billChecks.set(execute, checked);
    let problems = checked.get(route.routeKey);
    if (!problems) {
      problems = unboundedBill(route, execute);
      checked.set(route.routeKey, problems);
      if (problems.length > 0)
        logger.error({ routeKey: route.routeKey, problems }, "route not run: its contract allows a vendor bill above what is held");
    }
    return problems;
  }

  /** What this executor can run: the catalog's readiness first, then the money rule, then its own rails and adapters. */
  const readiness =
    (capabilityKey: string, execute: OperationContract) =>
    (route: Route): RouteReadiness => {
      const catalog = route.readiness ?? READINESS_UNKNOWN;
      if (!catalog.executable)
        return { ready: false, kind: "gated", blocking: catalog.blockedBy || READINESS_UNKNOWN.blockedBy, reason: catalog.reason };
      // On our own credentials an input the contract accepts must never cost more than is held (the catalog test checks it too).
      if (billProblems(route, execute).length > 0)
        return { ready: false, kind: "unavailable", reason: "its contract allows a vendor bill above what is held" };
      if (!deps.rails.get(route.networkKey))
        return { ready: false, kind: "unavailable", reason: `no ${route.networkKey} rail is configured` };
      // The registry holds a direct endpoint only with our API key: without it the vendor would refuse every call.
      const provider = deps.providers.get(route.providerKey, route.networkKey);
      if (!provider) return { ready: false, kind: "unavailable", reason: `${route.providerKey} is not configured on ${route.networkKey}` };
      if (!provider.adapter.capabilityKeys.includes(capabilityKey))
        return { ready: false, kind: "unavailable", reason: `the ${route.providerKey} adapter does not implement ${capabilityKey}` };
      return { ready: true };
    };

  /** The router's candidates, best first; undefined (cheapest-first order then) when the router cannot answer. */
  async function ranking(
    cmd: ExecuteCommand,
    input: Record<string, unknown>,
    budget: CallBudget,
  ): Promise<RecommendationCandidate[] | undefined> {
    // Recommend reads only feature asks (boolean fields) and the model from the input; sending just those
    // keeps large bodies (html, attachments, messages) off this hop on every execute. Only the ranking is
    // read here (candidates in order, their blocks but CREDITS_REQUIRED: the hold checks credits), so the
    // router reads no wallet and explains nothing.
    const asks = Object.fromEntries(Object.entries(input).filter(([, v]) => typeof v === "boolean"));
    const model = modelOf(input);
    try {
      const rec = await deps.router.recommend(
        {
          userId: cmd.userId,
          domainKey: cmd.domainKey,
          capabilityId: cmd.capabilityId,
          input: { ...asks, ...(model !== undefined ? { model } : {}), ...(cmd.agentName ? { agentName: cmd.agentName } : {}) },
          rankingOnly: true,
        },
        depOpts(budget),
      );
      return rec.candidates;
    } catch (err) {
      const remote = asAppError(err);
      if (remote.kind === "invalid_argument" || remote.kind === "not_found") throw remote;
      logger.warn({ err: remote }, "router unavailable; ranking routes by price");
      return undefined;
    }
  }

  /** Validates, plans and prepares; nothing here holds credits or calls a provider. */
  return async function plan(cmd: ExecuteCommand, executionId: string, budget: CallBudget): Promise<Execution> {
    const entry = await deps.catalog.capability(cmd.domainKey, cmd.capabilityId, depOpts(budget));
    const { capability, routes } = entry;
    const contractPath = `/domains/${cmd.domainKey}/capabilities/${cmd.capabilityId}/contract`;
    // A capability that cannot run at all says so before the body is judged.
    const gated = capabilityRefusal(capability);
    if (gated) throw gated;
    if (!entry.execute || entry.execute.status === "unavailable") {
      throw capabilityGated(
        `${capability.capabilityKey} has no execute contract yet. Nothing was charged.`,
        ["CAPABILITY_GATED"],
        "Call recommend to compare its routes.",
      );
    }
    let flat: Record<string, unknown>;
    try {
      flat = readExecuteBody(cmd.body, entry.execute);
    } catch (err) {
      if (err instanceof BodyShapeError) throw invalidInput(err.field, "given both inside 'input' and at the top level", contractPath);
      throw err;
    }
    const problem = validateInput(flat, entry.execute);
    if (problem) throw invalidInput(problem.field, problem.problem, contractPath);
    const { input, ...controls } = splitControls(flat);
    // Every resource the input names (an inboxId) must be the caller's, before anyone else is asked anything.
    const resources = await checkOwnedResources(deps, cmd, capability.capabilityKey, input, contractPath, budget);
    const ready = readiness(capability.capabilityKey, entry.execute);
    // Only routes serving the asked model, and using every named resource, are candidates, before the router or any pin is consulted.
    const eligible = routesUsingResources(
      deps.providers,
      capability,
      routesForModel(capability, routes, modelOf(input), controls),
      resources,
      controls,
      ready,
      contractPath,
    );

    const ranked = needsRanking(eligible, controls) ? await ranking(cmd, input, budget) : undefined;
    const routePlan = planRoutes({
      capability,
      routes: eligible,
      controls,
      readiness: ready,
      ...(ranked ? { ranking: ranked } : {}),
      contractPath,
    });

    const vendorKey = cmd.idempotencyKey ? vendorIdempotencyKey(cmd.userId, cmd.idempotencyKey) : executionId;
    const prepared: PreparedRoute[] = [];
    let refusal: { routeKey: string; err: ProviderError } | undefined;
    for (const route of routePlan.routes) {
      // Ready routes only (planRoutes): each has its rail and its provider on that network.
      const rail = deps.rails.get(route.networkKey)!;
      const provider = deps.providers.get(route.providerKey, route.networkKey)!;
      try {
        // The request is built from the quoted input: a per-token route sends exactly the max_tokens it holds for.
        const priced = quote(route, input);
        prepared.push({
          route,
          rail,
          adapter: provider.adapter,
          quote: priced,
          request: provider.adapter.buildRequest(capability.capabilityKey, priced.input, { ...provider.ctx, idempotencyKey: vendorKey }),
        });
      } catch (err) {
        if (err instanceof QuoteRefusal) {
          // This route cannot take the input (max_tokens above its model's cap): skip it, nothing was held.
          refusal ??= {
            routeKey: route.routeKey,
            err: new ProviderError("invalid_input", route.providerKey, err.message, { field: err.field, blame: "input" }),
          };
          continue;
        }
        // The input cannot be expressed to this vendor: skip its route, nothing was held for it.
        if (!(err instanceof ProviderError)) throw err;
        if (err.kind !== "invalid_input") logger.error({ err, routeKey: route.routeKey }, "adapter refused a route it was registered for");
        refusal ??= { routeKey: route.routeKey, err };
      }
    }
    if (prepared.length === 0) {
      // Every planned route (there is at least one) refused the input; the first refusal explains it.
      const { routeKey, err } = refusal!;
      if (err.field) throw invalidInput(err.field, `${err.message} (${routeKey} cannot run this input)`, contractPath);
      throw invalidArgument(
        "INVALID_INPUT",
        `${routeKey} cannot run this input: ${err.message}`,
        `Fix the input; the exact fields are in GET ${contractPath}.`,
      );
    }
    const chosen = prepared[0]?.route;
    const alternatives = eligible.some((r) => r !== chosen && ready(r).ready);
    return {
      id: executionId,
      cmd,
      capabilityKey: capability.capabilityKey,
      input,
      prepared,
      allowFallback: routePlan.allowFallback,
      alternatives,
    };
  };
}
