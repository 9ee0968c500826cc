// components.schemas of the wallet, top-ups and usage.

import { USAGE_KINDS } from "../../routes/requests/usage";
import { topUpBody } from "../../routes/requests/top-up";
import { jsonSchemaOf } from "../from-zod";
import { arrayOf, bool, int, nullableStr, num, objectSchema, oneOfValues, opt, ref, req, str, withDescription } from "../json-schema";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";

/** One group of GET /usage/summary: its key (required unless `keyRequired` is false), credits and count. */
function spendGroup(key: string, keySchema: JsonObject, keyRequired = true): JsonObject {
  return objectSchema(`The charges of one ${key}.`, {
    [key]: keyRequired ? req(keySchema) : opt(keySchema),
    credits: req(int(undefined, { minimum: 0 })),
    count: req(int(undefined, { minimum: 0 })),
  });
}

export const USAGE_SUMMARY_EXAMPLE = {
  success: true,
  userId: "user_7d2f1c",
  from: "2026-11-27T00:00:00.000Z",
  to: "2026-11-29T00:00:00.000Z",
  totalCredits: 30,
  count: 3,
  byDay: [
    { day: "2026-11-27", credits: 0, count: 0 },
    { day: "2026-11-28", credits: 30, count: 3 },
  ],
  byCapability: [{ capabilityKey: "email.send", credits: 30, count: 3 }],
  byRoute: [{ routeKey: "email.send.resend", credits: 30, count: 3 }],
  byAgent: [
    { agentName: "alpha_agent", credits: 20, count: 2 },
    { credits: 10, count: 1 },
  ],
};

export const TOP_UP_EXAMPLE = {
  success: true,
  userId: "user_7d2f1c",
  topUpId: `tu_${"3f".repeat(32)}`,
  amountCredits: 5000,
  creditedCredits: 5000,
  replayed: false,
  balanceCredits: 9990,
};

export function walletSchemas(ex: Examples): Partial<Record<SchemaName, JsonObject>> {
  return {
    WalletResponse: objectSchema(
      "Credit balance of the caller (1000 credits = 1 USD), the credits open holds and quotes reserve, and the spend policies that apply to the calling key " +
        "(and to the agent named in Agent-Name).",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        balanceCredits: req(int(undefined, { minimum: 0 })),
        reservedCredits: req(
          int("Credits held by open holds and quotes: not part of `balanceCredits`, given back when a hold is released or expires.", {
            minimum: 0,
          }),
        ),
        spendPolicies: req(
          arrayOf(
            objectSchema(
              "A spend policy of the key (no `agentName`), of one agent under it, or the key's default agent policy (`otherAgents`: every agent " +
                "without a policy of its own, none named included, counted together), with its current period. Periods are calendar periods in UTC: " +
                "`daily` from 00:00, `weekly` from Monday 00:00, `monthly` from the 1st 00:00; `none` is a one-off allowance that never resets. " +
                "Held credits count while held, a release gives them back, a capture counts what it charged; an execution counts in the period it started in. " +
                "A call over a limit is refused with 403 SPEND_LIMIT_EXCEEDED, one above `maxPriceCredits` with 409 PRICE_ABOVE_MAX; nothing is held.",
              {
                keyId: req(str()),
                agentName: opt(str()),
                otherAgents: opt(withDescription({ type: "boolean", const: true }, "The default agent policy.")),
                reset: req(oneOfValues(["daily", "weekly", "monthly", "none"])),
                budgetCredits: opt(int("Most credits per period.", { minimum: 1 })),
                maxPriceCredits: opt(int("Most credits a single execution may cost.", { minimum: 1 })),
                spentCredits: req(int("Credits counted this period: held plus captured.", { minimum: 0 })),
                heldCredits: req(int("Of spentCredits, what open holds reserve.", { minimum: 0 })),
                remainingCredits: opt(int("What the budget has left this period.", { minimum: 0 })),
                periodStart: req(str(undefined, { format: "date-time" })),
                resetsAt: req(
                  withDescription({ type: ["string", "null"], format: "date-time" }, "When the period resets; null for `none`."),
                ),
                capabilityCaps: req(
                  arrayOf(
                    objectSchema("A cap on one capability, per period.", {
                      capabilityKey: req(str()),
                      maxCredits: opt(int(undefined, { minimum: 1 })),
                      maxCount: opt(int(undefined, { minimum: 1 })),
                      spentCredits: req(int(undefined, { minimum: 0 })),
                      count: req(int("Executions counted this period.", { minimum: 0 })),
                    }),
                  ),
                ),
              },
            ),
          ),
        ),
      },
      { examples: [ex.wallet] },
    ),

    TopUpRequest: jsonSchemaOf(topUpBody, "output"),

    TopUpResponse: objectSchema(
      "A paid top-up. `creditedCredits` is what this request added: `amountCredits` the first time, 0 when the same payment is presented again (`replayed`).",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        topUpId: req(str("The payment's top-up (one per network, asset, payer and nonce).", { pattern: "^tu_[0-9a-f]{64}$" })),
        amountCredits: req(int("Credits the payment bought.", { minimum: 1 })),
        creditedCredits: req(int(undefined, { minimum: 0 })),
        replayed: req(bool()),
        balanceCredits: req(int("The wallet's balance now.", { minimum: 0 })),
      },
      {
        examples: [TOP_UP_EXAMPLE],
      },
    ),

    UsageResponse: objectSchema(
      "One page of the caller's money history, newest first: executions (kind `charge`) and credit movements (`grant`, `refund`, `adjustment`, `top_up`).",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        items: req(arrayOf(ref("UsageItem"), undefined, { maxItems: 100 })),
        nextCursor: req(
          nullableStr(
            "Send as `cursor` for the next (older) page; null on the last page. Opaque. Pages follow the items' order, not an offset: " +
              "items written while you page never shift them, so following the cursors sees every item once.",
          ),
        ),
      },
      { examples: [ex.usage] },
    ),

    UsageSummaryResponse: objectSchema(
      "The caller's charges over [from, to) summed per UTC day (every day of the range, zero included), capability, route and agent (dearest first), computed by the ledger in one query.",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        from: req(str(undefined, { format: "date-time" })),
        to: req(str(undefined, { format: "date-time" })),
        totalCredits: req(int(undefined, { minimum: 0 })),
        count: req(int("Charges in the range (an execution that charged nothing counts too).", { minimum: 0 })),
        byDay: req(arrayOf(spendGroup("day", str("YYYY-MM-DD, UTC.", { format: "date" })))),
        byCapability: req(arrayOf(spendGroup("capabilityKey", str()))),
        byRoute: req(arrayOf(spendGroup("routeKey", str()))),
        byAgent: req(arrayOf(spendGroup("agentName", str("Absent for charges made without an Agent-Name."), false))),
      },
      { examples: [USAGE_SUMMARY_EXAMPLE] },
    ),

    UsageItem: objectSchema(
      "One usage record. Free-form: the fields below are the ones this service sends; more may appear.",
      {
        id: opt(str()),
        createdAt: opt(str(undefined, { format: "date-time" })),
        productKey: opt(str("`<domainKey>.<capabilityId>`.")),
        capabilityKey: opt(str()),
        routeKey: opt(str()),
        provider: opt(str()),
        networkKey: opt(str()),
        kind: opt(
          oneOfValues(
            [...USAGE_KINDS],
            "`charge`: an execution (the fields above). `grant`, `refund`, `adjustment`: credits an operator added or took back, on the record. `top_up`: credits a payment bought.",
          ),
        ),
        amountCredits: opt(int("Credit movements: the credits added to the balance; negative when credits were taken back.")),
        reference: opt(str("Credit movements: the reference it was recorded under (one movement per reference).")),
        reason: opt(str("Credit movements: why.")),
        status: opt(str("Outcome, e.g. `succeeded`, `failed`, `refunded`.")),
        creditsCharged: opt(num(undefined, { minimum: 0 })),
        durationMs: opt(int("Duration of the provider call in milliseconds.", { minimum: 0 })),
        agentName: opt(str()),
        errorCode: opt(
          str("UPPER_SNAKE code of a failed execution, e.g. `PROVIDER_TIMEOUT`; absent when it succeeded.", {
            examples: ["PROVIDER_TIMEOUT"],
          }),
        ),
        traceId: opt(str("W3C trace id of the request.")),
        inputTokens: opt(
          int("Input tokens the vendor reported (model routes); a `per_token` route's charge comes from them.", { minimum: 0 }),
        ),
        outputTokens: opt(int("Output tokens the vendor reported (model routes).", { minimum: 0 })),
      },
      { open: true, examples: [ex.usageItem] },
    ),
  };
}
