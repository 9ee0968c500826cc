// The wallet, top-ups and usage.

import type { JsonObject } from "../document";
import type { Examples } from "../examples";
import { ref } from "../json-schema";
import { jsonBody, ok, operation, paramRef } from "../operation";
import { PAYMENT_RESPONSE_SCHEMA } from "../headers";
import { PAYMENT_RESPONSE_HEADER } from "../../payments/x402";
import { overviewExample, TOP_UP_EXAMPLE, USAGE_SUMMARY_EXAMPLE } from "../schemas/wallet";

export function walletPaths(ex: Examples): Record<string, Record<string, JsonObject>> {
  return {
    "/wallet": {
      get: operation({
        operationId: "getWallet",
        tag: "Wallet",
        summary: "Get the wallet balance",
        description:
          "Credit balance of the user the API key belongs to (1000 credits = 1 USD), with the spend policies of the calling key and of the agent named in Agent-Name.",
        auth: true,
        parameters: [paramRef("userId"), paramRef("AgentName")],
        success: ok("The wallet.", ref("WalletResponse"), ex.wallet),
        errors: { "400": "BadRequest" },
      }),
    },
    "/wallet/top-up": {
      post: operation({
        operationId: "topUpWallet",
        tag: "Wallet",
        summary: "Buy credits with an x402 payment",
        description:
          "Adds credits to the caller's wallet for a USDC payment over x402 v2. Without PAYMENT-SIGNATURE the answer is 402 with PAYMENT-REQUIRED " +
          "offering exactly the credits asked for; pay it (any x402 v2 client, e.g. `wrapFetchWithPayment` of `@x402/fetch`) and send the same request " +
          "with PAYMENT-SIGNATURE. The ledger verifies and settles the payment with the facilitator and credits the wallet once per payment: the same " +
          "signature presented again credits nothing and answers the first result (`replayed: true`). The answer carries PAYMENT-RESPONSE.",
        auth: true,
        parameters: [paramRef("PaymentSignature")],
        requestBody: {
          required: true,
          description: "How many credits to buy.",
          content: jsonBody(ref("TopUpRequest"), { amountCredits: 5000 }),
        },
        success: {
          ...ok("The credited top-up and the new balance.", ref("TopUpResponse"), TOP_UP_EXAMPLE),
          headers: { [PAYMENT_RESPONSE_HEADER]: PAYMENT_RESPONSE_SCHEMA },
        },
        errors: { "400": "BadRequest", "402": "TopUpPaymentRequired", "409": "TopUpConflict", "503": "TopUpUnavailable" },
      }),
    },
    "/usage": {
      get: operation({
        operationId: "listUsage",
        tag: "Wallet",
        summary: "List usage, a page at a time",
        description:
          "The money history of the user the API key belongs to, newest first: each execution (kind `charge`, with what it charged) and each credit " +
          "movement (an operator's `grant`, `refund` or `adjustment`, a `top_up`, with the credits it moved and why). At most `limit` items per page; " +
          "`nextCursor` continues after the last one. Filters combine, and may change between pages. Any other query parameter, a repeated one, " +
          "or a bad value answers 400 INVALID_INPUT naming it.",
        auth: true,
        parameters: [
          paramRef("limit"),
          paramRef("cursor"),
          paramRef("from"),
          paramRef("to"),
          paramRef("agentNameFilter"),
          paramRef("capabilityKeyFilter"),
          paramRef("usageKind"),
        ],
        success: ok("The usage items.", ref("UsageResponse"), ex.usage),
        errors: { "400": "InvalidQuery" },
      }),
    },
    "/usage/summary": {
      get: operation({
        operationId: "summarizeUsage",
        tag: "Wallet",
        summary: "Sum spend per day, capability, route and agent",
        description:
          "The caller's charges over [from, to) summed per UTC day, capability, route and agent, in one request (the ledger sums them; no paging). " +
          "Without `from` and `to`: the last 30 UTC days, today included. At most 366 days. `agentName` and `capabilityKey` narrow it. " +
          "Any other query parameter, a repeated one, or a bad value answers 400 INVALID_INPUT naming it.",
        auth: true,
        parameters: [paramRef("from"), paramRef("to"), paramRef("agentNameFilter"), paramRef("capabilityKeyFilter")],
        success: ok("The sums.", ref("UsageSummaryResponse"), USAGE_SUMMARY_EXAMPLE),
        errors: { "400": "InvalidQuery" },
      }),
    },
    "/overview": {
      get: operation({
        operationId: "getOverview",
        tag: "Wallet",
        summary: "Get the wallet, the spend summed and the latest charges in one answer",
        description:
          "What a dashboard shows, in one request: the answers of GET /wallet, GET /usage/summary (over `from` and `to`, by default the last 30 UTC " +
          "days) and GET /usage?kind=charge (the `latest` newest charges), nested as those resources give them. The gateway asks the ledger for " +
          "the three at once. Any other query parameter, a repeated one, or a bad value answers 400 INVALID_INPUT naming it.",
        auth: true,
        parameters: [paramRef("from"), paramRef("to"), paramRef("overviewLatest"), paramRef("AgentName")],
        success: ok("The overview.", ref("OverviewResponse"), overviewExample(ex)),
        errors: { "400": "InvalidQuery" },
      }),
    },
    "/usage/export": {
      get: operation({
        operationId: "exportUsage",
        tag: "Wallet",
        summary: "Export usage as CSV",
        description:
          "Every usage item GET /usage's filters select, newest first, as CSV (a header line, then one line per item), streamed: the gateway reads the " +
          "ledger a page at a time as the client reads, so any number of rows is exported in flat memory. A refused query answers 400 before any row; " +
          "a failure after the first row cuts the answer off (a partial file never ends as a complete one would).",
        auth: true,
        parameters: [paramRef("from"), paramRef("to"), paramRef("agentNameFilter"), paramRef("capabilityKeyFilter"), paramRef("usageKind")],
        success: {
          description: "The rows, as text/csv.",
          content: {
            "text/csv": {
              schema: { type: "string" },
              example:
                "id,createdAt,kind,capabilityKey,routeKey,provider,agentName,status,errorCode,durationMs,creditsCharged,amountCredits,reason,reference,traceId\n",
            },
          },
        },
        errors: { "400": "InvalidQuery" },
      }),
    },
  };
}
