// The attempts of one planned execution: per route, hold its quote (its price, or the most a per-token
// call can cost; hold id = attempt id), call the provider over the route's rail within the deadline,
// then capture what the call cost (success: pricing.meter, never above the hold) or release (failure)
// over the bus with the usage item, falling back only when allowed and safe. Reports every attempt, and
// records on the provider span and in the metrics what a paid rail paid. The answer, the usage item and
// a final error explain the routing: the attempts made and why every other route was not tried.
import { AppError, newId, unavailable } from "@agentic/platform/core";
import type { Route } from "@agentic/proto/catalog/v1";
import {
  SettlementKind,
  type ExecutionResult,
  type ExecutionUsage,
  type OutgoingPayment,
  type UnchargedWork,
} from "@agentic/proto/events/v1";
import type { DecisionAttempt, ExecuteResponse, ExecutionAttempt, NotTriedRoute, RouteDecision } from "@agentic/proto/executor/v1";
import { classifyFailure, mayFallBack, type AttemptFailure } from "./attempt-failure";
import { dependencyOpts } from "./deadline";
import {
  asAppError,
  creditsRequired,
  deadlineTooShort,
  providerError,
  providerRejectedInput,
  providerTimeout,
  settlementUnconfirmed,
  vendorQuotaExhausted,
} from "./errors";
import type { CallBudget, Execution, PreparedRoute, StoredOutcome } from "./execution";
import { meter, type Charge } from "./pricing";
import { SettlementUnconfirmedError, type ExecutorDeps, type ProviderCallSpan } from "./ports";
import { ProviderError, type CreatedResource, type ProviderResult, type TokenUsage } from "./provider-port";
import { RailError, creditsToMicroUsd, type RailPayment } from "./rail-port";
import { decisionAttempt, notTried, routeDecision } from "./route-decision";
import { KeyClaimAnswered } from "./idempotency";
import { fitsSettlement, LARGEST_SETTLEMENT_BYTES } from "./settlement-size";
import { runFlow } from "./vendor-flow";

/** Time kept back from a provider call for settling the hold and answering. */
const SETTLE_RESERVE_MS = 1_000;
/** A provider call shorter than this is not worth starting. */
const MIN_PROVIDER_MS = 250;
/** How long a fallback hold waits for this execution's earlier releases to free their credits. */
const RELEASE_WAIT_MS = 2_000;

/** How far a run got: the holds it placed (none: no provider was called), and whether a settlement carried its answer. */
export interface AttemptProgress {
  holds: number;
  answered: boolean;
  /**
   * The acknowledged capture carries the whole answer (data included): the ledger records it for the
   * execution with the charge, so storing it again for the key would only repeat that write.
   */
  answerCaptured?: boolean;
}

/** A run that has held nothing and answered nothing yet. */
export function newProgress(): AttemptProgress {
  return { holds: 0, answered: false };
}

/** The runner: `run(execution, budget, progress?)` resolves the served response, or throws why nothing was served. */
export function createAttemptRunner(deps: ExecutorDeps) {
  const { settings, logger } = deps;
  const depOpts = (budget: CallBudget) => dependencyOpts(settings, budget);

  /** Runs the planned attempts until one succeeds, a failure forbids going on, or none is left. */
  async function run(x: Execution, budget: CallBudget, progress: AttemptProgress = newProgress()): Promise<ExecuteResponse> {
    // An answer the capture cannot carry would leave the vendor paid and the caller uncharged: never start such an attempt.
    const busMax = deps.bus.maxMessageBytes?.() ?? Number.POSITIVE_INFINITY;
    if (busMax < LARGEST_SETTLEMENT_BYTES) {
      logger.error(
        { maxMessageBytes: busMax, needed: LARGEST_SETTLEMENT_BYTES },
        "the bus cannot carry the largest capture; no attempt started",
      );
      throw unavailable("UNAVAILABLE", "Executions cannot be settled right now; nothing was held or charged.", "Retry shortly.");
    }
    try {
      return await attempt(x, budget, progress);
    } catch (err) {
      if (!(err instanceof AppError) || progress.holds === 0) throw err;
      // It held credits, so it is an execution the client can look up: the error names it.
      const named = err.withDetails({ executionId: x.id });
      if (!x.cmd.idempotencyKey && !progress.answered) {
        // Without a key nobody else records how it ended when no settlement carried it: best effort, for GET /executions.
        void deps.ledger
          .completeExecution(
            { userId: x.cmd.userId, executionId: x.id, result: deps.records.encode({ ok: false, error: named }) },
            depOpts(budget),
          )
          .catch(() => undefined);
      }
      throw named;
    }
  }

  async function attempt(x: Execution, budget: CallBudget, progress: AttemptProgress): Promise<ExecuteResponse> {
    const done: ExecutionAttempt[] = [];
    const decided: DecisionAttempt[] = [];
    // Planned routes this run passed over, and (once it ends) the ones it never reached.
    const passed: NotTriedRoute[] = [];
    const decision = (served: string, from: number): RouteDecision =>
      routeDecision(served, decided, [
        ...x.notTried,
        ...passed,
        ...x.prepared
          .slice(from)
          .map((p) => notTried(p.route, "not_reached", served ? `${served} served first` : "fallback stopped earlier")),
      ]);
    const failures: { routeKey: string; failure: AttemptFailure }[] = [];
    /** The first planned route not looked at yet. */
    let next = 0;
    const released: string[] = [];
    // Once a payment credential has left for this execution its seller may collect it, so no other paying route runs (it could pay twice).
    let credentialSent = false;
    const mayRun = (p: PreparedRoute) => !credentialSent || p.rail.network === "direct";
    /** The first vendor quota refusal: the answer when no route was tried at all. */
    let quotaRefused: AppError | undefined;
    /** The Idempotency-Key the next hold claims: the first hold's only (the claim stands whatever that hold decides). */
    let claim = x.claim;

    for (let i = 0; i < x.prepared.length && done.length < settings.maxAttempts; i++) {
      const prepared = x.prepared[i] as PreparedRoute;
      const { route } = prepared;
      next = i + 1;
      if (!mayRun(prepared)) {
        passed.push(notTried(route, "not_reached", "a payment credential was already sent for this execution"));
        continue;
      }
      // A multi-request flow may take the execution's budget (each request still within the provider timeout), at most half a hold's life.
      const providerMs = prepared.flow
        ? Math.min(budget.remainingMs() - SETTLE_RESERVE_MS, settings.holdTtlMs / 2)
        : Math.min(settings.providerTimeoutMs, budget.remainingMs() - SETTLE_RESERVE_MS);
      if (providerMs < MIN_PROVIDER_MS) {
        if (done.length === 0) throw deadlineTooShort();
        next = i;
        break;
      }
      // One request of the vendor plan every user shares: past the caller's share, another route or a 429.
      const quota = (await deps.vendorQuota?.take(route, x.cmd.userId)) ?? { ok: true };
      if (!quota.ok) {
        quotaRefused ??= vendorQuotaExhausted(route.routeKey, quota.scope, quota.resetAtMs, Date.now());
        if (done.length === 0 && (!x.allowFallback || !x.prepared.slice(i + 1).some(mayRun))) throw quotaRefused;
        passed.push(
          notTried(route, "vendor_quota", `its vendor quota is spent for ${quota.scope === "user" ? "you" : "everyone"} this window`),
        );
        continue;
      }
      const attemptId = newId("attempt");
      // The quote: the route's price, or on a per-token route the most this input can cost.
      const priceCredits = prepared.quote.holdCredits;
      const held = await hold(x, route, attemptId, priceCredits, released, budget, claim);
      claim = undefined;
      if (!held.ok) {
        // Only a cheaper fallback can still be afforded; otherwise the refusal is the answer.
        const cheaper = x.allowFallback && x.prepared.slice(i + 1).some((p) => p.quote.holdCredits < priceCredits);
        if (!cheaper) throw creditsRequired(route.routeKey, priceCredits, held.balanceCredits, meteredBy(prepared));
        passed.push(notTried(route, "credits_required", `the wallet could not cover its ${priceCredits} credits`));
        continue;
      }
      progress.holds++;

      // A span per provider call: the outgoing hop of the trace, named by route.
      const result = await deps.tracer.providerCall(
        {
          capabilityKey: x.capabilityKey,
          routeKey: route.routeKey,
          providerKey: route.providerKey,
          networkKey: route.networkKey,
          settlementRail: route.settlementRail ?? "",
          url: prepared.request.url,
          method: prepared.request.method,
          holdId: attemptId,
          heldCredits: prepared.quote.holdCredits,
        },
        (span) => callProvider(x, prepared, attemptId, providerMs, span),
      );
      const made: ExecutionAttempt = {
        attemptId,
        routeKey: route.routeKey,
        provider: route.providerKey,
        ok: result.ok,
        errorKind: result.ok ? "" : result.failure.errorKind,
        heldCredits: priceCredits,
        latencyMs: result.latencyMs,
      };
      done.push(made);
      decided.push(decisionAttempt(made, result.ok ? undefined : result.failure.usageErrorCode));

      if (result.ok) {
        const charge = chargeOf(prepared, result.value);
        const response: ExecuteResponse = {
          success: true,
          status: result.value.status === "completed" ? "succeeded" : result.value.status,
          provider: route.providerKey,
          routeKey: route.routeKey,
          creditsCharged: charge.credits,
          ...(result.value.providerMessageId ? { providerMessageId: result.value.providerMessageId } : {}),
          data: result.value.data,
          executionId: x.id,
          replayed: false,
          attempts: done,
          ...(charge.usage ? { usage: charge.usage } : {}),
          decision: decision(route.routeKey, i + 1),
        };
        // The capture carries the answer: the charge and what a retry replays are recorded as one fact.
        // Capturing less than the hold returns the rest to the wallet.
        progress.answered = true;
        const created = result.value.createdResources ?? [];
        progress.answerCaptured = await settle(
          x,
          route,
          attemptId,
          charge.credits,
          result.latencyMs,
          undefined,
          { ok: true, response },
          charge.usage,
          {
            payment: result.payment,
            resources: created,
            ...(response.decision ? { decision: response.decision } : {}),
          },
        );
        deps.metrics.creditsCharged(route.routeKey, charge.credits);
        // The capture records what was created as the caller's; answer once the ledger has it, so it can be used at once.
        if (created.length > 0 && !(await releasesApplied([attemptId], budget)))
          logger.warn(
            { holdId: attemptId, routeKey: route.routeKey },
            "created resources not recorded yet; the caller may get 404 for them briefly",
          );
        return response;
      }

      failures.push({ routeKey: route.routeKey, failure: result.failure });
      credentialSent ||= result.failure.paymentSent;
      const last =
        result.failure.blame === "input" ||
        !x.allowFallback ||
        !mayFallBack(result.failure) ||
        !x.prepared.slice(i + 1).some(mayRun) ||
        done.length >= settings.maxAttempts;
      // The last release carries the execution's answer; an earlier one frees credits for the fallback.
      progress.answered = last;
      // A release still books what the attempt paid: paid and not charged, the platform's loss.
      const ended = last ? decision("", i + 1) : undefined;
      await settle(
        x,
        route,
        attemptId,
        priceCredits,
        result.latencyMs,
        result.failure,
        ended ? { ok: false, error: finalError(x, failures, ended) } : undefined,
        undefined,
        { payment: result.payment, ...(ended ? { decision: ended } : {}) },
      );
      released.push(attemptId);
      if (last) break;
    }
    if (failures.length === 0 && quotaRefused) throw quotaRefused;
    throw finalError(x, failures, decision("", next));
  }

  /**
   * Holds the route's price (hold id = attempt id). Not ok on CREDITS_REQUIRED, after letting this
   * execution's earlier releases land once, since a fallback needs the credits they free.
   */
  async function hold(
    x: Execution,
    route: Route,
    attemptId: string,
    priceCredits: number,
    released: readonly string[],
    budget: CallBudget,
    claim: Execution["claim"],
  ): Promise<{ ok: true } | { ok: false; balanceCredits?: number }> {
    // The execute contract has no agentName field (a body naming one is refused): the Agent-Name header names the agent.
    const agentName = x.cmd.agentName;
    const request = {
      holdId: attemptId,
      userId: x.cmd.userId,
      amountCredits: priceCredits,
      ttlMs: settings.holdTtlMs,
      routeKey: route.routeKey,
      // Recorded with the hold in one step: from now on this execution may have reached a provider and never runs again.
      execution: {
        executionId: x.id,
        capabilityKey: x.capabilityKey,
        ...(x.cmd.idempotencyKey ? { idempotencyKey: x.cmd.idempotencyKey } : {}),
      },
      // Whose spend policies the ledger checks and counts in the same step (the key's, the agent's, per capability).
      ...(x.cmd.keyId ? { keyId: x.cmd.keyId } : {}),
      ...(agentName ? { agentName } : {}),
      capabilityKey: x.capabilityKey,
      // A quoted execution draws the quote's reserved credits in the same step; the ledger refuses an expired or used quote.
      ...(x.quoteId !== undefined ? { quoteId: x.quoteId } : {}),
    };
    for (let round = 0; ; round++) {
      try {
        if (claim && round === 0) {
          // One ledger call claims the key and, only if it did, holds: a key already claimed answers with nothing held.
          const { claim: answered } = await deps.ledger.claimIdempotencyKeyAndHoldCredits({ claim, hold: request }, depOpts(budget));
          if (answered?.state !== "claimed") throw new KeyClaimAnswered(answered ?? { state: "conflict", executionId: "", started: false });
        } else {
          await deps.ledger.holdCredits(request, depOpts(budget));
        }
        deps.metrics.holdPlaced(route.routeKey);
        return { ok: true };
      } catch (err) {
        if (err instanceof KeyClaimAnswered) throw err;
        const remote = asAppError(err);
        if (remote.code === "CREDITS_REQUIRED") {
          if (round === 0 && released.length > 0 && (await releasesApplied(released, budget))) continue;
          const balance = remote.details?.balanceCredits;
          return typeof balance === "number" ? { ok: false, balanceCredits: balance } : { ok: false };
        }
        if (remote.kind === "deadline_exceeded" || remote.kind === "unavailable") {
          // The hold may exist although we saw no answer: release it rather than let it wait for expiry.
          void deps.bus
            .settle({
              holdId: attemptId,
              userId: x.cmd.userId,
              kind: SettlementKind.SETTLEMENT_KIND_RELEASE,
              capturedCredits: 0,
              resources: [],
              payments: [],
            })
            .catch(() => undefined);
          throw unavailable("UNAVAILABLE", "The ledger did not answer; nothing was charged.", "Retry shortly.");
        }
        throw remote;
      }
    }
  }

  /** Waits (bounded) until the ledger has applied the settlements (releases, or a capture) of `holdIds`; false when it has not in time. */
  async function releasesApplied(holdIds: readonly string[], budget: CallBudget): Promise<boolean> {
    const until = Date.now() + Math.min(RELEASE_WAIT_MS, budget.remainingMs() - SETTLE_RESERVE_MS);
    for (let pause = 25; Date.now() < until; pause = Math.min(pause * 2, 200)) {
      const states = await Promise.all(
        holdIds.map((holdId) =>
          deps.ledger.getHold({ holdId }, depOpts(budget)).then(
            (r) => r.hold?.state,
            () => "held",
          ),
        ),
      );
      if (states.every((s) => s !== "held")) return true;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    return false;
  }

  /** `payment`: what a paid rail paid (or sent a credential for), whatever the outcome. */
  type CallResult = ({ ok: true; value: ProviderResult } | { ok: false; failure: AttemptFailure }) & {
    latencyMs: number;
    payment?: RailPayment;
  };

  /** One provider call over the route's rail, with its deadline; never throws. Reports the route outcome. */
  async function callProvider(
    x: Execution,
    { route, rail, adapter, quote, request, flow }: PreparedRoute,
    attemptId: string,
    providerMs: number,
    span: ProviderCallSpan,
  ): Promise<CallResult> {
    const started = performance.now();
    let result: CallResult;
    let payment: RailPayment | undefined;
    let vendorActed = false;
    try {
      let value: ProviderResult;
      if (flow) {
        // Several requests on the direct rail (no payment to book); vendor-flow.ts refuses a paid rail.
        const outcome = await runFlow(flow, rail, { deadlineMs: providerMs, requestTimeoutMs: settings.providerTimeoutMs });
        if (!outcome.ok) {
          vendorActed = outcome.vendorActed;
          throw outcome.err;
        }
        value = outcome.value;
      } else {
        const res = await rail.send(request, {
          signal: AbortSignal.timeout(providerMs),
          maxPriceMicroUsd: creditsToMicroUsd(quote.holdCredits),
        });
        // A payment is spent once the seller took it, whatever the vendor's answer turns out to be.
        payment = paidOnRail(res.payment);
        if (payment) recordPayment(payment, span);
        value = adapter.parseResponse(x.capabilityKey, res, x.input);
      }
      result = { ok: true, value, latencyMs: performance.now() - started, ...(payment ? { payment } : {}) };
    } catch (err) {
      // A credential sent before the rail failed (refused, unanswered, unreadable answer) is on the books too.
      if (!payment && err instanceof RailError && err.payment) {
        payment = paidOnRail(err.payment);
        if (payment) recordPayment(payment, span);
      }
      const classified = classifyFailure(err, route.providerKey, providerMs, payment !== undefined);
      // The vendor accepted a request that made it act (a job started): whatever failed next, it may have acted.
      const failure = vendorActed ? afterVendorActed(classified, route.providerKey) : classified;
      if (failure.errorKind === "invalid_response" && !(err instanceof ProviderError))
        logger.error({ err, routeKey: route.routeKey }, "provider call failed unexpectedly");
      else logger.warn({ err, routeKey: route.routeKey, errorKind: failure.errorKind }, "provider attempt failed");
      span.failed(failure.summary);
      result = { ok: false, failure, latencyMs: performance.now() - started, ...(payment ? { payment } : {}) };
    } finally {
      span.end();
    }
    const errorKind = result.ok ? "" : result.failure.errorKind;
    deps.metrics.attempt({
      routeKey: route.routeKey,
      providerKey: route.providerKey,
      outcome: result.ok ? "ok" : errorKind,
      durationMs: result.latencyMs,
    });
    deps.bus.reportOutcome({
      attemptId,
      routeKey: route.routeKey,
      capabilityKey: x.capabilityKey,
      providerKey: route.providerKey,
      ok: result.ok,
      errorKind,
      latencyMs: result.latencyMs,
      observedAt: new Date(),
      // Who and whose fault: the router counts against the route only what is the route's fault, seen by more than one caller.
      userId: x.cmd.userId,
      blame: result.ok ? "" : result.failure.blame,
    });
    return result;
  }

  /** A payment made on a paid rail (x402, MPP); a call billed to our vendor key is none. */
  function paidOnRail(payment: RailPayment | undefined): RailPayment | undefined {
    return payment && payment.rail !== "api_key" ? payment : undefined;
  }

  /** Makes a paid rail's payment visible: on the provider span, and in the payments counter. */
  function recordPayment(payment: RailPayment, span: ProviderCallSpan): void {
    if (payment.rail === "api_key") return; // billed to our vendor account: nothing was paid on a rail
    const settlement = payment.settlement ?? "unconfirmed";
    span.paid(payment, settlement);
    deps.metrics.railPayment(payment.rail, settlement);
  }

  /**
   * Captures the price (no failure) or releases the hold, with the usage item. A capture JetStream
   * never acknowledged turns the success into SETTLEMENT_UNCONFIRMED: success is never claimed for
   * a charge that may not happen. An unacknowledged release only delays the refund to the hold's expiry.
   * Resolves true when the acknowledged settlement carried the execution's whole answer (data included).
   */
  async function settle(
    x: Execution,
    route: Route,
    attemptId: string,
    priceCredits: number,
    latencyMs: number,
    failure: AttemptFailure | undefined,
    outcome?: StoredOutcome,
    tokens?: TokenUsage,
    facts: { payment?: RailPayment | undefined; resources?: readonly CreatedResource[]; decision?: RouteDecision } = {},
  ): Promise<boolean> {
    const traceId = deps.traceId();
    const usage: ExecutionUsage = {
      usageId: "",
      createdAt: new Date(),
      productKey: `${route.domainKey}.${route.capabilityId}`,
      capabilityKey: x.capabilityKey,
      routeKey: route.routeKey,
      provider: route.providerKey,
      networkKey: route.networkKey,
      status: failure ? "failed" : "succeeded",
      durationMs: Math.round(latencyMs),
      traceId: traceId ?? "",
      ...(x.cmd.agentName ? { agentName: x.cmd.agentName } : {}),
      ...(failure ? { errorCode: failure.usageErrorCode } : {}),
      ...(tokens ? { inputTokens: tokens.inputTokens, outputTokens: tokens.outputTokens } : {}),
      // The execution's explained routing, on the usage item of the attempt that ended it.
      ...(facts.decision ? { decisionJson: JSON.stringify(facts.decision) } : {}),
    };
    const kind = failure ? SettlementKind.SETTLEMENT_KIND_RELEASE : SettlementKind.SETTLEMENT_KIND_CAPTURE;
    const carried = outcome ? settledOutcome(x, outcome) : undefined;
    try {
      await deps.bus.settle({
        holdId: attemptId,
        userId: x.cmd.userId,
        kind,
        capturedCredits: failure ? 0 : priceCredits,
        usage,
        ...(carried ? { outcome: carried.result } : {}),
        // Written by the ledger in the same step as this capture or release: ownership, and what was paid.
        resources: (facts.resources ?? []).map((r) => ({ kind: r.kind, resourceId: r.resourceId, provider: route.providerKey })),
        payments: facts.payment ? [outgoingPayment(facts.payment)] : [],
        ...(failure ? unchargedWorkOf(route, failure, priceCredits) : {}),
      });
      if (failure) deps.metrics.holdReleased(route.routeKey);
      return carried?.whole === true;
    } catch (err) {
      if (!(err instanceof SettlementUnconfirmedError)) throw err;
      deps.metrics.settlementUnconfirmed(route.routeKey);
      logger.error(
        { err, holdId: attemptId, routeKey: route.routeKey, kind: failure ? "release" : "capture" },
        "settlement not acknowledged; the hold will expire and be released",
      );
      if (!failure) throw settlementUnconfirmed(route.routeKey, priceCredits);
      return false;
    }
  }

  /**
   * What a served attempt is charged (pricing.meter): its price, or on a per-token route the vendor's
   * usage at the model's prices, never above the hold. A usage priced above the hold is our loss
   * (the quote undercounted): clamped, logged and counted, to alert on.
   */
  function chargeOf({ route, quote }: PreparedRoute, result: ProviderResult): Charge {
    const charge = meter(quote, result.usage, result.billedUnits);
    if (charge.overHold) {
      deps.metrics.meteredChargeAnomaly(route.routeKey, "usage_over_hold");
      logger.error(
        { routeKey: route.routeKey, heldCredits: quote.holdCredits, usage: charge.usage },
        "vendor usage costs more than the hold; charged the hold",
      );
    }
    // A pinned driver the vendor reports above its pin (a letter printed on more pages than its price): the hold is all we can charge.
    for (const d of route.billDrivers ?? []) {
      const units = result.billedUnits?.[d.driver];
      if (d.bound !== "pinned" || !(d.maxUnits > 0) || units === undefined || units <= d.maxUnits) continue;
      deps.metrics.meteredChargeAnomaly(route.routeKey, "units_over_pinned");
      logger.error(
        { routeKey: route.routeKey, driver: d.driver, pinned: d.maxUnits, reported: units },
        "vendor billed more units than the route pins; charged the hold",
      );
    }
    if (charge.usageMissing) {
      deps.metrics.meteredChargeAnomaly(route.routeKey, "usage_missing");
      logger.error(
        { routeKey: route.routeKey, heldCredits: quote.holdCredits },
        "metered vendor answered without the usage it bills by; charged the hold",
      );
    }
    return charge;
  }

  /**
   * The answer a settlement carries: whole for a keyed execution (a retry replays it), without the
   * provider's data otherwise, or when the whole answer would not fit the capture (settlement-size.ts):
   * the charge never depends on the answer's size.
   */
  function settledOutcome(x: Execution, outcome: StoredOutcome): { result: ExecutionResult; whole: boolean } {
    const stored = (o: StoredOutcome): ExecutionResult => {
      const record = deps.records.encode(o);
      return { httpStatus: record.httpStatus, bodyJson: JSON.stringify(record.body ?? {}) };
    };
    if (!outcome.ok) return { result: stored(outcome), whole: true };
    const withoutData: StoredOutcome = { ok: true, response: { ...outcome.response, data: undefined } };
    if (!x.cmd.idempotencyKey) return { result: stored(withoutData), whole: false };
    const whole = stored(outcome);
    if (fitsSettlement(whole.bodyJson)) return { result: whole, whole: true };
    logger.warn(
      { executionId: x.id, bytes: Buffer.byteLength(whole.bodyJson, "utf8") },
      "answer too large to store for replay; the capture carries it without its data",
    );
    return { result: stored(withoutData), whole: false };
  }

  /** The error an execution ends with when no attempt succeeded. */
  function finalError(x: Execution, failures: readonly { routeKey: string; failure: AttemptFailure }[], decision: RouteDecision): AppError {
    const last = failures.at(-1);
    if (!last) return deadlineTooShort();
    const tried = failures.map((f) => `${f.routeKey} (${f.failure.summary})`).join(", ");
    const details = {
      executionId: x.id,
      attempts: failures.map((f) => ({ routeKey: f.routeKey, errorKind: f.failure.errorKind })),
      decision,
    };
    if (last.failure.blame === "input") {
      return providerRejectedInput(
        `${last.routeKey} refused the request: ${last.failure.summary}. Nothing was charged.`,
        `Check the input against GET /domains/${x.cmd.domainKey}/capabilities/${x.cmd.capabilityId}/contract and the provider's limits, then retry.`,
        details,
      );
    }
    const hint = last.failure.mayHaveActed
      ? "The provider may still have completed the operation although it did not confirm it; check before retrying."
      : !x.allowFallback && x.alternatives
        ? "Retry, or send allowFallback: true to let another route take the call."
        : "Retry later, or pin another provider.";
    const message = `${x.capabilityKey} failed on ${failures.length === 1 ? "" : "every route tried: "}${tried}. Nothing was charged.`;
    return failures.every((f) => f.failure.errorKind === "timeout")
      ? providerTimeout(message, hint, details)
      : providerError(message, hint, details);
  }

  return run;
}

/** How a route's hold is the most a request can cost rather than its price: by tokens, by units the vendor reports, or not. */
function meteredBy({ quote }: PreparedRoute): "tokens" | "units" | false {
  if (quote.billing === "per_token") return "tokens";
  return quote.meters && quote.meters.length > 0 ? "units" : false;
}

/** A flow's failure after the vendor accepted a request that acts: the vendor's doing, and possibly done, so never a fallback. */
function afterVendorActed(f: AttemptFailure, providerKey: string): AttemptFailure {
  if (f.mayHaveActed) return f;
  const usageErrorCode = f.usageErrorCode === "PROVIDER_REJECTED_INPUT" ? "PROVIDER_ERROR" : f.usageErrorCode;
  return {
    ...f,
    blame: "provider",
    mayHaveActed: true,
    usageErrorCode,
    summary: `${f.summary} after ${providerKey} had accepted the request`,
  };
}

/** A paid rail's payment as the settlement carries it to the ledger's books. */
/**
 * What a failed attempt on a direct route (our own vendor key) tells the ledger when its vendor may have
 * worked and nothing is charged: the ledger books it at risk, estimated at the attempt's price, and counts
 * it against the user's daily allowance. Nothing on a paid rail (its payment is booked instead).
 */
function unchargedWorkOf(route: Route, failure: AttemptFailure, priceCredits: number): { unchargedWork?: UnchargedWork } {
  if (route.networkKey !== "direct" || !failure.mayHaveActed || failure.paymentSent) return {};
  return { unchargedWork: { reason: failure.usageErrorCode, estimatedCostMicroUsd: creditsToMicroUsd(priceCredits) } };
}

function outgoingPayment(p: RailPayment): OutgoingPayment {
  return {
    rail: p.rail,
    network: p.network ?? "",
    asset: p.asset ?? "",
    amountAtomic: p.amountAtomic ?? "0",
    amountMicroUsd: p.amountMicroUsd ?? 0,
    payTo: p.payTo ?? "",
    payer: p.payer ?? "",
    reference: p.reference ?? "",
    settlement: p.settlement ?? "unconfirmed",
  };
}
