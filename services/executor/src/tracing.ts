// The AttemptTracer port on OpenTelemetry: each provider call is a CLIENT span named by its route
// (the outgoing hop of the caller's trace), with the route, the hold and the vendor's host; what a
// paid rail paid is added to it, and a failed call sets its status to ERROR with a public summary.
import { trace, SpanKind, SpanStatusCode, type Span } from "@opentelemetry/api";
import {
  ATTR_CAPABILITY_KEY,
  ATTR_CREDITS_AMOUNT,
  ATTR_HOLD_ID,
  ATTR_NETWORK_KEY,
  ATTR_PROVIDER_KEY,
  ATTR_ROUTE_KEY,
  ATTR_SETTLEMENT_RAIL,
} from "@agentic/platform";
import type { AttemptTracer, ProviderCall, ProviderCallSpan } from "./domain/ports";
import type { PaymentSettlement, RailPayment } from "./domain/rail-port";

/** Span attributes of a paid provider call (x402, MPP); the amount is in atomic units of the asset, as a string. */
const ATTR_PAYMENT_RAIL = "agentic.payment.rail";
const ATTR_PAYMENT_SETTLEMENT = "agentic.payment.settlement";
const ATTR_PAYMENT_AMOUNT_ATOMIC = "agentic.payment.amount_atomic";
const ATTR_PAYMENT_ASSET = "agentic.payment.asset";
const ATTR_PAYMENT_NETWORK = "agentic.payment.network";
const ATTR_PAYMENT_PAY_TO = "agentic.payment.pay_to";
const ATTR_PAYMENT_REFERENCE = "agentic.payment.reference";

export function createAttemptTracer(): AttemptTracer {
  const tracer = trace.getTracer("executor");
  return {
    providerCall(call, fn) {
      return tracer.startActiveSpan(`provider ${call.routeKey}`, { kind: SpanKind.CLIENT }, (span) => {
        span.setAttributes(callAttributes(call));
        return fn(providerCallSpan(span));
      });
    },
  };
}

function callAttributes(call: ProviderCall): Record<string, string | number> {
  return {
    [ATTR_CAPABILITY_KEY]: call.capabilityKey,
    [ATTR_ROUTE_KEY]: call.routeKey,
    [ATTR_PROVIDER_KEY]: call.providerKey,
    [ATTR_NETWORK_KEY]: call.networkKey,
    [ATTR_SETTLEMENT_RAIL]: call.settlementRail,
    "server.address": new URL(call.url).hostname,
    "http.request.method": call.method,
    [ATTR_HOLD_ID]: call.holdId,
    [ATTR_CREDITS_AMOUNT]: call.heldCredits,
  };
}

function providerCallSpan(span: Span): ProviderCallSpan {
  return {
    paid(payment: RailPayment, settlement: PaymentSettlement) {
      span.setAttributes({
        [ATTR_PAYMENT_RAIL]: payment.rail,
        [ATTR_PAYMENT_SETTLEMENT]: settlement,
        ...(payment.amountAtomic !== undefined ? { [ATTR_PAYMENT_AMOUNT_ATOMIC]: payment.amountAtomic } : {}),
        ...(payment.asset !== undefined ? { [ATTR_PAYMENT_ASSET]: payment.asset } : {}),
        ...(payment.network !== undefined ? { [ATTR_PAYMENT_NETWORK]: payment.network } : {}),
        ...(payment.payTo !== undefined ? { [ATTR_PAYMENT_PAY_TO]: payment.payTo } : {}),
        ...(payment.reference !== undefined ? { [ATTR_PAYMENT_REFERENCE]: payment.reference } : {}),
      });
    },
    failed: (summary) => span.setStatus({ code: SpanStatusCode.ERROR, message: summary }),
    end: () => span.end(),
  };
}
