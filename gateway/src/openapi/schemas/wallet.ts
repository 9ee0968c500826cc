// components.schemas of the wallet, top-ups and usage: the top-up request (routes/requests/top-up.ts) and the
// answers, declared with zod.

import { USAGE_KINDS } from "../../routes/requests/usage";
import { topUpBody } from "../../routes/requests/top-up";
import { jsonSchemaOf } from "../from-zod";
import { z } from "zod";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";

/** One group of GET /usage/summary: its key (required unless `keyRequired` is false), credits and count. */
function spendGroup<K extends string>(key: K, keySchema: z.ZodString, keyRequired = true) {
  return z
    .strictObject({
      [key]: keyRequired ? keySchema : keySchema.optional(),
      credits: z.int().min(0),
      count: z.int().min(0),
    } as Record<K | "credits" | "count", z.ZodType>)
    .meta({ description: `The charges of one ${key}.` });
}

const dateTime = (description?: string) => z.string().meta({ format: "date-time", ...(description ? { description } : {}) });

/** GET /overview's answer: the examples of the three answers it nests. */
export const overviewExample = (ex: Examples): JsonObject => ({
  success: true,
  userId: (ex.wallet as JsonObject).userId,
  wallet: ex.wallet,
  spend: USAGE_SUMMARY_EXAMPLE,
  latestCharges: {
    ...(ex.usage as JsonObject),
    items: ((ex.usage as JsonObject).items as JsonObject[]).filter((item) => item.kind === "charge"),
  },
});

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

/** The wallet's requests: the top-up body (routes/requests/top-up.ts). */
export function walletSchemas(): Partial<Record<SchemaName, JsonObject>> {
  return {
    TopUpRequest: jsonSchemaOf(topUpBody, "output"),
  };
}

/** The answers of the wallet, top-ups and usage. */
export function walletAnswers(ex: Examples) {
  const capabilityCap = z
    .strictObject({
      capabilityKey: z.string(),
      maxCredits: z.int().min(1).optional(),
      maxCount: z.int().min(1).optional(),
      spentCredits: z.int().min(0),
      count: z.int().min(0).meta({ description: "Executions counted this period." }),
    })
    .meta({ description: "A cap on one capability, per period." });

  const spendPolicy = z
    .strictObject({
      keyId: z.string(),
      agentName: z.string().optional(),
      otherAgents: z.literal(true).optional().meta({ description: "The default agent policy." }),
      reset: z.enum(["daily", "weekly", "monthly", "none"]),
      budgetCredits: z.int().min(1).optional().meta({ description: "Most credits per period." }),
      maxPriceCredits: z.int().min(1).optional().meta({ description: "Most credits a single execution may cost." }),
      spentCredits: z.int().min(0).meta({ description: "Credits counted this period: held plus captured." }),
      heldCredits: z.int().min(0).meta({ description: "Of spentCredits, what open holds reserve." }),
      remainingCredits: z.int().min(0).optional().meta({ description: "What the budget has left this period." }),
      periodStart: dateTime(),
      resetsAt: z.string().nullable().meta({ format: "date-time", description: "When the period resets; null for `none`." }),
      capabilityCaps: z.array(capabilityCap),
    })
    .meta({
      description:
        "A spend policy of the key (no `agentName`), of one agent under it, or the key's default agent policy (`otherAgents`: every agent " +
        "without a policy of its own, none named included, counted together), with its current period. Periods are calendar periods in UTC: " +
        "`daily` from 00:00, `weekly` from Monday 00:00, `monthly` from the 1st 00:00; `none` is a one-off allowance that never resets. " +
        "Held credits count while held, a release gives them back, a capture counts what it charged; an execution counts in the period it started in. " +
        "A call over a limit is refused with 403 SPEND_LIMIT_EXCEEDED, one above `maxPriceCredits` with 409 PRICE_ABOVE_MAX; nothing is held.",
    });

  const WalletResponse = z
    .strictObject({
      success: z.literal(true),
      userId: z.string(),
      balanceCredits: z.int().min(0),
      reservedCredits: z.int().min(0).meta({
        description: "Credits held by open holds and quotes: not part of `balanceCredits`, given back when a hold is released or expires.",
      }),
      spendPolicies: z.array(spendPolicy),
    })
    .meta({
      description:
        "Credit balance of the caller (1000 credits = 1 USD), the credits open holds and quotes reserve, and the spend policies that apply to the calling key " +
        "(and to the agent named in Agent-Name).",
      examples: [ex.wallet],
    });

  const TopUpResponse = z
    .strictObject({
      success: z.literal(true),
      userId: z.string(),
      topUpId: z
        .string()
        .regex(/^tu_[0-9a-f]{64}$/)
        .meta({ description: "The payment's top-up (one per network, asset, payer and nonce)." }),
      amountCredits: z.int().min(1).meta({ description: "Credits the payment bought." }),
      creditedCredits: z.int().min(0),
      replayed: z.boolean(),
      balanceCredits: z.int().min(0).meta({ description: "The wallet's balance now." }),
    })
    .meta({
      description:
        "A paid top-up. `creditedCredits` is what this request added: `amountCredits` the first time, 0 when the same payment is presented again (`replayed`).",
      examples: [TOP_UP_EXAMPLE],
    });

  const UsageItem = z
    .looseObject({
      id: z.string().optional(),
      createdAt: dateTime().optional(),
      productKey: z.string().optional().meta({ description: "`<domainKey>.<capabilityId>`." }),
      capabilityKey: z.string().optional(),
      routeKey: z.string().optional(),
      provider: z.string().optional(),
      networkKey: z.string().optional(),
      kind: z.enum(USAGE_KINDS).optional().meta({
        description:
          "`charge`: an execution (the fields above). `grant`, `refund`, `adjustment`: credits an operator added or took back, on the record. `top_up`: credits a payment bought.",
      }),
      amountCredits: z
        .int()
        .optional()
        .meta({ description: "Credit movements: the credits added to the balance; negative when credits were taken back." }),
      reference: z
        .string()
        .optional()
        .meta({ description: "Credit movements: the reference it was recorded under (one movement per reference)." }),
      reason: z.string().optional().meta({ description: "Credit movements: why." }),
      status: z.string().optional().meta({ description: "Outcome, e.g. `succeeded`, `failed`, `refunded`." }),
      creditsCharged: z.number().min(0).optional(),
      durationMs: z.int().min(0).optional().meta({ description: "Duration of the provider call in milliseconds." }),
      agentName: z.string().optional(),
      errorCode: z
        .string()
        .optional()
        .meta({
          description: "UPPER_SNAKE code of a failed execution, e.g. `PROVIDER_TIMEOUT`; absent when it succeeded.",
          examples: ["PROVIDER_TIMEOUT"],
        }),
      traceId: z.string().optional().meta({ description: "W3C trace id of the request." }),
      inputTokens: z
        .int()
        .min(0)
        .optional()
        .meta({ description: "Input tokens the vendor reported (model routes); a `per_token` route's charge comes from them." }),
      outputTokens: z.int().min(0).optional().meta({ description: "Output tokens the vendor reported (model routes)." }),
    })
    .meta({
      description: "One usage record. Free-form: the fields below are the ones this service sends; more may appear.",
      examples: [ex.usageItem],
    });

  const UsageResponse = z
    .strictObject({
      success: z.literal(true),
      userId: z.string(),
      items: z.array(UsageItem).max(100),
      nextCursor: z
        .string()
        .nullable()
        .meta({
          description:
            "Send as `cursor` for the next (older) page; null on the last page. Opaque. Pages follow the items' order, not an offset: " +
            "items written while you page never shift them, so following the cursors sees every item once.",
        }),
    })
    .meta({
      description:
        "One page of the caller's money history, newest first: executions (kind `charge`) and credit movements (`grant`, `refund`, `adjustment`, `top_up`).",
      examples: [ex.usage],
    });

  const UsageSummaryResponse = z
    .strictObject({
      success: z.literal(true),
      userId: z.string(),
      from: dateTime(),
      to: dateTime(),
      totalCredits: z.int().min(0),
      count: z.int().min(0).meta({ description: "Charges in the range (an execution that charged nothing counts too)." }),
      byDay: z.array(spendGroup("day", z.string().meta({ description: "YYYY-MM-DD, UTC.", format: "date" }))),
      byCapability: z.array(spendGroup("capabilityKey", z.string())),
      byRoute: z.array(spendGroup("routeKey", z.string())),
      byAgent: z.array(spendGroup("agentName", z.string().meta({ description: "Absent for charges made without an Agent-Name." }), false)),
    })
    .meta({
      description:
        "The caller's charges over [from, to) summed per UTC day (every day of the range, zero included), capability, route and agent (dearest first), computed by the ledger in one query.",
      examples: [USAGE_SUMMARY_EXAMPLE],
    });

  const OverviewResponse = z
    .strictObject({
      success: z.literal(true),
      userId: z.string(),
      wallet: WalletResponse.meta({ description: "As GET /wallet answers it (with the Agent-Name sent)." }),
      spend: UsageSummaryResponse.meta({ description: "As GET /usage/summary answers it for `from` and `to`." }),
      latestCharges: UsageResponse.meta({
        description:
          "As GET /usage?kind=charge&limit=`latest` answers it: the newest charges; `nextCursor` continues at GET /usage?kind=charge&cursor=.",
      }),
    })
    .meta({
      description:
        "The caller's account at a glance: the wallet, the spend of a range summed, the latest charges; each exactly as its own resource answers it.",
      examples: [overviewExample(ex)],
    });

  return { WalletResponse, TopUpResponse, UsageResponse, UsageSummaryResponse, OverviewResponse, UsageItem };
}
