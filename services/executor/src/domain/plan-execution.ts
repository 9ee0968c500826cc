// Planning of one execution: read the capability, validate the body against its execute contract,
// pick and order the routes (pins, a quote, the router's ranking, fresh or stored, what this executor
// can run, the caller's maxPriceCredits), and build each route's provider request, noting why every
// other route is left out. Nothing here holds credits or calls a provider.
import { invalidArgument } from "@agentic/platform/core";
import type { OperationContract, Route } from "@agentic/proto/catalog/v1";
import type { NotTriedRoute } from "@agentic/proto/executor/v1";
import type { QuoteHold } from "@agentic/proto/ledger/v1";
import type { RecommendationCandidate } from "@agentic/proto/router/v1";
import { dependencyOpts } from "./deadline";
import { asAppError, capabilityGated, invalidInput, priceAboveMax, quoteAlreadyUsed, quoteExpired, quoteMismatch } from "./errors";
import { BodyShapeError, readExecuteBody, splitControls } from "./execute-body";
import type { CallBudget, ExecuteCommand, Execution, PreparedRoute } from "./execution";
import { vendorIdempotencyKey } from "./idempotency";
import { checkOwnedResources, routesUsingResources } from "./owned-resources";
import { checkSenders } from "./owned-senders";
import { approvalStep } from "./approvals";
import { takePlanControls, type PlanControls } from "./plan-controls";
import type { ExecutorDeps } from "./ports";
import { modelOf, quote, QuoteRefusal, servesModel, unboundedBill } from "./pricing";
import { ProviderError, type VendorCalls } from "./provider-port";
import { requestHash } from "./request-hash";
import { notTried } from "./route-decision";
import {
  belowStoredMaxPrice,
  capabilityRefusal,
  needsRanking,
  planRoutes,
  routesForModel,
  type RouteReadiness,
  type RoutingControls,
} from "./route-plan";
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
    routes: readonly Route[],
    plan: PlanControls,
    budget: CallBudget,
  ): Promise<RecommendationCandidate[] | undefined> {
    // Recommend reads only feature asks (boolean fields), the model and the owned resource a byo route
    // runs on (e.g. inboxId) from the input; sending just those keeps large bodies (html, attachments,
    // messages) out of the ranking on every execute. Only the ranking is read here (candidates in order, their
    // blocks but CREDITS_REQUIRED: the hold checks credits): no wallet read, nothing explained. It runs in this
    // process (the shared ranking library), from the state the router shares.
    const asks = Object.fromEntries(Object.entries(input).filter(([, v]) => typeof v === "boolean"));
    const model = modelOf(input);
    const owned = Object.fromEntries(
      routes.flatMap((r) =>
        r.ownedResource && typeof input[r.ownedResource.field] === "string" ? [[r.ownedResource.field, input[r.ownedResource.field]]] : [],
      ),
    );
    try {
      const rec = await deps.router.recommend(
        {
          userId: cmd.userId,
          domainKey: cmd.domainKey,
          capabilityId: cmd.capabilityId,
          input: { ...asks, ...owned, ...(model !== undefined ? { model } : {}), ...(cmd.agentName ? { agentName: cmd.agentName } : {}) },
          rankingOnly: true,
          optimizationPreferences: plan.optimizationPreferences ?? [],
          ...(plan.maxPriceCredits !== undefined ? { maxPriceCredits: plan.maxPriceCredits } : {}),
        },
        depOpts(budget),
      );
      return rec.candidates;
    } catch (err) {
      const remote = asAppError(err);
      if (remote.kind === "invalid_argument" || remote.kind === "not_found") throw remote;
      logger.warn({ err: remote }, "ranking unavailable (its shared state could not be read); ranking routes by price");
      return undefined;
    }
  }

  /**
   * The candidates of a stored recommendation, in its order. Its errors (not found, expired, stale) are
   * the answer: a stored ranking is never silently replaced by a fresh one, nor by price order.
   */
  async function storedRanking(
    cmd: ExecuteCommand,
    recommendationId: string,
    capabilityKey: string,
    contractPath: string,
    budget: CallBudget,
  ) {
    const stored = await deps.router.getRecommendation({ recommendationId, userId: cmd.userId }, depOpts(budget)).catch((err: unknown) => {
      throw asAppError(err);
    });
    const rec = stored.recommendation ?? { productKey: "", candidates: [] };
    if (rec.productKey !== capabilityKey)
      throw invalidInput(
        "recommendationId",
        `recommendation ${recommendationId} is for ${rec.productKey}, not ${capabilityKey}`,
        contractPath,
      );
    return rec.candidates;
  }

  /**
   * The user's quote, checked against this body; the hold that draws it checks it again, atomically. Under an
   * Idempotency-Key its state is left to that hold: a retry of the execution that used it must reach its replay.
   */
  async function quoteFor(cmd: ExecuteCommand, quoteId: string, planHash: string, budget: CallBudget): Promise<QuoteHold> {
    const found = await deps.ledger.getQuoteHold({ quoteId, userId: cmd.userId }, depOpts(budget)).catch((err: unknown) => {
      throw asAppError(err);
    });
    const held = found.quote;
    if (!held) throw quoteExpired(quoteId);
    if (held.requestHash !== planHash) throw quoteMismatch(quoteId, "another body or capability");
    if (cmd.idempotencyKey) return held;
    if (held.status === "used") throw quoteAlreadyUsed(quoteId);
    if (held.status !== "open" || (held.expiresAt !== undefined && held.expiresAt.getTime() <= Date.now())) throw quoteExpired(quoteId);
    return held;
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
    // The plan controls are the executor's own, checked before the contract's fields.
    const { rest, controls: planControls } = takePlanControls(flat);
    const problem = validateInput(rest, entry.execute);
    if (problem) throw invalidInput(problem.field, problem.problem, contractPath);
    const { input: asSent, ...pins } = splitControls(rest);
    // What a quote is bound to: the body as read (wrapper and nulls aside), without the quoteId itself.
    const { quoteId: _quoteId, ...quoted } = flat;
    // Hashed only when needed (a quoteId to check, a quote to reserve): a plain execute never hashes its body for it.
    const planHash = () => requestHash(cmd.domainKey, cmd.capabilityId, quoted);
    const held = planControls.quoteId !== undefined ? await quoteFor(cmd, planControls.quoteId, planHash(), budget) : undefined;
    // A quote runs on its route only: another route would be another price.
    const controls: RoutingControls = held ? { ...pins, routeKey: held.routeKey, allowFallback: false } : pins;
    // Every sender it names (from, replyTo) must be the caller's to use: a from inbox also names that inbox.
    const senders = await checkSenders(deps, cmd, capability.capabilityKey, asSent, contractPath, budget);
    // An approval the capability issues is recorded now; one it requires must be one we issued to this caller, for this input.
    const approval = await approvalStep(deps, cmd, capability.capabilityKey, senders, contractPath);
    const input = approval.input;
    // Every resource the input names (an inboxId) must be the caller's, before anyone else is asked anything.
    const resources = await checkOwnedResources(deps, cmd, capability.capabilityKey, input, contractPath, budget);
    const ready = readiness(capability.capabilityKey, entry.execute);
    const model = modelOf(input);
    // Only routes serving the asked model, and using every named resource, are candidates, before the router or any pin is consulted.
    const eligible = routesUsingResources(
      deps.providers,
      capability,
      routesForModel(capability, routes, model, controls),
      resources,
      controls,
      ready,
      contractPath,
    );
    const skipped: NotTriedRoute[] = routes.filter((r) => !eligible.includes(r)).map((r) => notServing(r, model));

    // Every route that could run needs a resource the input does not name (a post needs the caller's own
    // linked profile): the router would only block them all, so their adapters say what is missing and how to get it.
    const runnable = eligible.filter((r) => ready(r).ready);
    const lacksResource = runnable.length > 0 && runnable.every((r) => r.ownedResource && input[r.ownedResource.field] === undefined);
    const ranked = held
      ? undefined
      : planControls.recommendationId !== undefined
        ? await storedRanking(cmd, planControls.recommendationId, capability.capabilityKey, contractPath, budget)
        : needsRanking(eligible, controls) && !lacksResource
          ? await ranking(cmd, input, routes, planControls, budget)
          : undefined;
    const underStoredMax =
      planControls.recommendationId !== undefined && ranked
        ? belowStoredMaxPrice(capability.capabilityKey, eligible, ranked, ready)
        : { routes: eligible, notTried: [] };
    skipped.push(...underStoredMax.notTried);
    const plannable = underStoredMax.routes;
    const routePlan = planRoutes({
      capability,
      routes: plannable,
      controls,
      readiness: ready,
      ...(ranked ? { ranking: ranked } : {}),
      contractPath,
    });
    // Under a quote the pin is the quote's, not the caller's: say so.
    const pinnedBy = (n: NotTriedRoute): NotTriedRoute =>
      held && n.reason === "pinned_elsewhere" ? { ...n, detail: `quote ${held.quoteId} binds ${held.routeKey}` } : n;
    skipped.push(...routePlan.notTried.map(pinnedBy));

    const vendorKey = cmd.idempotencyKey ? vendorIdempotencyKey(cmd.userId, cmd.idempotencyKey) : executionId;
    const prepared: PreparedRoute[] = [];
    /** The cheapest route left out for costing more than maxPriceCredits: what PRICE_ABOVE_MAX names. */
    let cheapestOverMax: PreparedRoute | undefined;
    let refusal: { routeKey: string; err: ProviderError } | undefined;
    for (const route of routePlan.routes) {
      // Ready routes only (planRoutes): each has its rail and its provider on that network.
      const rail = deps.rails.get(route.networkKey)!;
      const provider = deps.providers.get(route.providerKey, route.networkKey)!;
      try {
        // The request is built from the quoted input: a per-token route sends exactly the max_tokens it holds for.
        const priced = quote(route, input, { providerTimeoutMs: deps.settings.providerTimeoutMs });
        // A quoted execution holds (and at most charges) the quoted price, whatever the catalog says now.
        const price = held ? { ...priced, holdCredits: held.amountCredits } : priced;
        const ctx = { ...provider.ctx, idempotencyKey: vendorKey };
        const flow = provider.adapter.flows?.[capability.capabilityKey];
        const candidate: PreparedRoute = {
          route,
          rail,
          adapter: provider.adapter,
          quote: price,
          request: provider.adapter.buildRequest(capability.capabilityKey, priced.input, ctx),
          ...(flow ? { flow: (vendor: VendorCalls) => flow(priced.input, ctx, vendor) } : {}),
        };
        // Never tried above the caller's maximum: a fallback never walks to a dearer route than allowed.
        if (planControls.maxPriceCredits !== undefined && price.holdCredits > planControls.maxPriceCredits) {
          if (!cheapestOverMax || price.holdCredits < cheapestOverMax.quote.holdCredits) cheapestOverMax = candidate;
          skipped.push(
            notTried(route, "over_max_price", `costs ${price.holdCredits} credits, above maxPriceCredits ${planControls.maxPriceCredits}`),
          );
          continue;
        }
        prepared.push(candidate);
      } catch (err) {
        if (err instanceof QuoteRefusal) {
          // This route cannot take the input (max_tokens above its model's cap): skip it, nothing was held.
          refusal ??= {
            routeKey: route.routeKey,
            err: new ProviderError("invalid_input", route.providerKey, err.message, { field: err.field, blame: "input" }),
          };
          skipped.push(notTried(route, "input_not_served", err.message));
          continue;
        }
        // The input cannot be expressed to this vendor: skip its route, nothing was held for it.
        if (!(err instanceof ProviderError)) throw err;
        if (err.kind !== "invalid_input") logger.error({ err, routeKey: route.routeKey }, "adapter refused a route it was registered for");
        refusal ??= { routeKey: route.routeKey, err };
        skipped.push(notTried(route, "input_not_served", err.message));
      }
    }
    if (prepared.length === 0 && cheapestOverMax) {
      throw priceAboveMax(capability.capabilityKey, planControls.maxPriceCredits!, {
        routeKey: cheapestOverMax.route.routeKey,
        credits: cheapestOverMax.quote.holdCredits,
      });
    }
    if (prepared.length === 0) {
      // Every planned route (there is at least one) refused the input; the first refusal explains it.
      const { routeKey, err } = refusal!;
      const nextActions = err.opts.nextActions ? { nextActions: [...err.opts.nextActions] } : {};
      if (err.field)
        throw invalidInput(err.field, `${err.message} (${routeKey} cannot run this input)`, contractPath).withDetails(nextActions);
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
      notTried: skipped,
      ...(held ? { quoteId: held.quoteId } : {}),
      ...(approval.use ? { useApproval: approval.use } : {}),
      get planHash() {
        return planHash();
      },
    };
  };
}

/** Why a route that cannot take this input (its model or a resource it names) is left out. */
function notServing(route: Route, model: string | undefined): NotTriedRoute {
  if (model !== undefined && route.models.length > 0 && !servesModel(route, model))
    return notTried(route, "input_not_served", `it does not serve model ${model}`);
  return notTried(route, "input_not_served", "it cannot use a resource the input names");
}
