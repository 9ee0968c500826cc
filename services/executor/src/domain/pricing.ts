// What a call on a route costs: `quote` (the most this input can cost: what is held before the call)
// and `meter` (what the vendor's answer says it cost: what is captured). One pair for every route:
// per-call routes quote and meter their fixed price; per-unit routes (the vendor bills per recipient,
// say) their price times the units the request names; per-token routes (our own vendor key, billed by
// the vendor per token) quote the worst case the request allows and meter the vendor's token usage.
// Pure (no I/O, no clock), so a public quote can later answer with the very numbers execute holds.
//
// The rule this serves: on a route that runs on our credentials (direct, managed), the largest vendor
// bill any accepted input can cause is at most what the caller is held for. For per-token routes:
// - input tokens are bounded by UTF-8 bytes: the vendors' tokenizers (OpenAI's tiktoken, DeepSeek's) are
//   byte-level BPE, where every token covers at least one byte. Characters/4 is the usual estimate and
//   a fair average for English, but CJK or emoji text runs 1-3 tokens per character, so only bytes are a
//   bound. Each message adds the chat format's tokens (3 per message, 1 for a name, 3 to prime the
//   reply in OpenAI's published accounting; MESSAGE_OVERHEAD_TOKENS rounds that up);
// - output tokens are bounded by the max_tokens we send: the caller's, else DEFAULT_MAX_OUTPUT_TOKENS,
//   never above the model's cap, plus the chain of thought a reasoning model bills beyond it;
// - prices are ours (the vendor's list price + the catalog's margin), rounded up to whole credits.
// - output tokens are also bounded by time: a call must end within the provider deadline, or we abort
//   and release while the vendor bills what it generated, so max_tokens is capped to what the model
//   emits in that time at its slowest (outputTokensPerSecond), and asking for more is refused;
// - a per-call route whose vendor bills by what it returns (a page's tokens, a PDF's pages) declares
//   it (the catalog's billDrivers): the adapter sends the vendor its own cap, the hold covers the cap,
//   and the call is charged what the vendor reports (meter), never more than the hold.
// unboundedBill() tells which routes break the rule; the catalog test and the executor's route
// readiness both use it.
import type { BillDriver, FieldContract, ModelPrice, OperationContract, Route } from "@agentic/proto/catalog/v1";
import type { BilledUnits, CapabilityInput, TokenUsage } from "./provider-port";

/** The execute field a model route is chosen by. */
export const MODEL_FIELD = "model";
/** The execute field that bounds a per-token call's output. */
const MAX_TOKENS_FIELD = "max_tokens";
/** Output tokens asked for when the caller names none: a long answer stops there (finish reason "length"). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 1024;
/** Chat-format tokens per message on top of its text (OpenAI counts 3, and 1 more for a name). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply (OpenAI counts 3). */
export const REPLY_PRIMING_TOKENS = 3;
/** Time of a provider call before the first output token (queueing, the prompt's processing), in ms. */
const FIRST_TOKEN_ALLOWANCE_MS = 2_000;

/**
 * Execute fields of a per-token route and why each cannot raise the bill beyond the quote. A contract
 * field not listed here could (a tool list, an image) and makes the route's bill unbounded until it
 * is accounted for: see unboundedBill.
 */
const METERED_FIELDS: Readonly<Record<string, string>> = {
  model: "chooses the prices",
  messages: "input tokens: bounded by their UTF-8 bytes",
  max_tokens: "output tokens: sent as quoted",
  temperature: "not billed",
  top_p: "not billed",
  stop: "not billed",
  stream: "not billed (the adapter never streams)",
  provider: "routing control",
  routeKey: "routing control",
  allowFallback: "routing control",
  optimizationPreferences: "plan control",
  maxPriceCredits: "plan control",
  recommendationId: "plan control",
  quoteId: "plan control",
};
/** The parts of one message the quote counts. */
const MESSAGE_FIELDS = new Set(["role", "content", "name"]);

/**
 * A quote's shape: the credits to hold and the input to send (a per-token quote pins max_tokens).
 * "per_call": the price is fixed once quoted (per-call routes, and per-unit ones by their unit count).
 */
export type Quote =
  | {
      billing: "per_call";
      holdCredits: number;
      input: CapabilityInput;
      /** The route's vendor-capped bill drivers, when it is metered by what the vendor reports: the hold covers each cap. */
      meters?: UnitMeter[];
      /** With meters: the price before any metered units. */
      baseCredits?: number;
    }
  | {
      billing: "per_token";
      holdCredits: number;
      input: CapabilityInput;
      model: ModelPrice;
      /** Most input tokens the vendor can count for this input. */
      maxInputTokens: number;
      /** Most output tokens it can bill: max_tokens as sent, plus any chain of thought. */
      maxOutputTokens: number;
    };

/** A bill driver a per-call route is metered by (a catalog billDriver bounded by a vendor_cap). */
export interface UnitMeter {
  /** output_tokens, output_bytes, pages: the key of the vendor's report in ProviderResult.billedUnits. */
  driver: string;
  /** The cap the adapter sends the vendor. */
  maxUnits: number;
  /** Units the route's price covers. */
  includedUnits: number;
  /** Credits per 1M units beyond the included ones. */
  creditsPerMillionUnits: number;
}

/** Limits of the executor the quote respects. */
export interface QuoteLimits {
  /** Deadline of one provider call, in ms: a model's output is capped to what it emits in that time. */
  providerTimeoutMs?: number;
}

/** What a served call is charged. */
export interface Charge {
  credits: number;
  /** Tokens the vendor reported, when it did. */
  usage?: TokenUsage;
  /** Units the vendor reported for a metered per-call route. */
  billedUnits?: BilledUnits;
  /** The vendor's usage priced above the hold: the charge was clamped to it (our loss; alert on it). */
  overHold: boolean;
  /** A metered route answered without the usage it bills by: the hold (the most the call could cost) is charged for it. */
  usageMissing: boolean;
}

/** The input cannot run on this route (model not served, max_tokens above the model's cap); nothing is held. */
export class QuoteRefusal extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "QuoteRefusal";
  }
}

/** The model an input names, when it names one. */
export function modelOf(input: CapabilityInput): string | undefined {
  const model = input[MODEL_FIELD];
  return typeof model === "string" ? model : undefined;
}

/** Whether routes of this kind are chosen by model (any of them lists models). */
export function routesByModel(routes: readonly Route[]): boolean {
  return routes.some((r) => r.models.length > 0);
}

/** Whether `route` serves `model`; a route that lists no models serves none. */
export function servesModel(route: Route, model: string): boolean {
  return route.models.some((m) => m.model === model);
}

/** The models a set of routes serves, sorted and without repeats (for error messages). */
export function servedModels(routes: readonly Route[]): string[] {
  return [...new Set(routes.flatMap((r) => r.models.map((m) => m.model)))].sort();
}

/** The most this input can cost on `route`, and the input to send there. Throws QuoteRefusal. */
export function quote(route: Route, input: CapabilityInput, limits: QuoteLimits = {}): Quote {
  if (route.billing === "per_unit" && route.billedPer)
    return perCall(route, route.startingCostCredits * unitsIn(input, route.billedPer.fields), input);
  if (route.models.length === 0) return perCall(route, route.startingCostCredits, input);
  const name = modelOf(input);
  const model = route.models.find((m) => m.model === name);
  if (!model) {
    throw new QuoteRefusal(
      MODEL_FIELD,
      `${route.routeKey} does not serve ${JSON.stringify(name ?? null)}; it serves ${route.models.map((m) => m.model).join(", ")}`,
    );
  }
  const asked = input[MAX_TOKENS_FIELD];
  if (typeof asked === "number" && asked > model.maxOutputTokens) {
    // The vendor would refuse it; refusing here holds nothing and never pays a seller for a refusal.
    throw new QuoteRefusal(MAX_TOKENS_FIELD, `${model.model} accepts at most ${model.maxOutputTokens} output tokens (got ${asked})`);
  }
  if (route.billing !== "per_token") return perCall(route, route.startingCostCredits, input);

  // Our key pays for every token generated, also after we gave up waiting: ask only for what can arrive in time.
  const inTime = tokensWithinDeadline(model, limits.providerTimeoutMs);
  if (typeof asked === "number" && asked > inTime) {
    throw new QuoteRefusal(
      MAX_TOKENS_FIELD,
      `${model.model} emits at most ${inTime} output tokens within the ${limits.providerTimeoutMs} ms provider deadline (got ${asked})`,
    );
  }
  const maxTokens = typeof asked === "number" ? asked : Math.min(DEFAULT_MAX_OUTPUT_TOKENS, model.maxOutputTokens, inTime);
  const maxInputTokens = inputTokenBound(input.messages);
  const maxOutputTokens = maxTokens + model.maxReasoningTokens;
  return {
    billing: "per_token",
    holdCredits: Math.max(1, tokenCredits(model, maxInputTokens, maxOutputTokens)),
    // Sent exactly as quoted, so the vendor can never bill more output than was held for.
    input: { ...input, [MAX_TOKENS_FIELD]: maxTokens },
    model,
    maxInputTokens,
    maxOutputTokens,
  };
}

/** Most output tokens `model` emits within a provider call of `providerTimeoutMs` at its slowest; unbounded when either is unknown. */
export function tokensWithinDeadline(model: ModelPrice, providerTimeoutMs: number | undefined): number {
  if (!(model.outputTokensPerSecond > 0) || providerTimeoutMs === undefined) return Number.MAX_SAFE_INTEGER;
  return Math.max(1, Math.floor((model.outputTokensPerSecond * Math.max(0, providerTimeoutMs - FIRST_TOKEN_ALLOWANCE_MS)) / 1000));
}

/** A per-call quote of `base` credits; on a route metered by what the vendor reports, the hold covers every cap. */
function perCall(route: Route, base: number, input: CapabilityInput): Quote {
  const meters = unitMeters(route);
  if (meters.length === 0) return { billing: "per_call", holdCredits: base, input };
  const holdCredits = base + meters.reduce((sum, m) => sum + unitCredits(m, m.maxUnits), 0);
  return { billing: "per_call", holdCredits, input, meters, baseCredits: base };
}

/** The route's bill drivers bounded by a vendor cap it is metered within. */
export function unitMeters(route: Route): UnitMeter[] {
  return (route.billDrivers ?? [])
    .filter((d) => d.bound === "vendor_cap" && d.maxUnits > 0 && d.creditsPerMillionUnits > 0)
    .map((d) => ({
      driver: d.driver,
      maxUnits: d.maxUnits,
      includedUnits: d.includedUnits,
      creditsPerMillionUnits: d.creditsPerMillionUnits,
    }));
}

/** Credits for `units` of a metered driver beyond the ones the price covers, rounded up (prices are whole milli-credits per 1M units). */
function unitCredits(m: UnitMeter, units: number): number {
  const extra = Math.max(0, Math.min(units, m.maxUnits) - m.includedUnits);
  return Math.ceil((extra * Math.round(m.creditsPerMillionUnits * 1000)) / 1_000_000_000);
}

/**
 * Units a per-unit route bills for this input (at least 1): each string value of `fields` counts 1,
 * each item of an array value 1 (e.g. to, cc and bcc: the recipients an email goes to).
 */
export function unitsIn(input: CapabilityInput, fields: readonly string[]): number {
  let units = 0;
  for (const name of fields) {
    const value = input[name];
    if (typeof value === "string") units += 1;
    else if (Array.isArray(value)) units += value.length;
  }
  return Math.max(1, units);
}

/**
 * What a served call is charged: a per-call quote's price (on a metered route, its base plus the units
 * the vendor reports beyond the included ones, a missing report counting as the cap); a per-token
 * call's usage at the model's prices. Never above the hold.
 */
export function meter(q: Quote, usage: TokenUsage | undefined, billedUnits?: BilledUnits): Charge {
  const reported = usage ? { usage } : {};
  if (q.billing === "per_call") {
    if (!q.meters || q.meters.length === 0) return { credits: q.holdCredits, ...reported, overHold: false, usageMissing: false };
    let credits = q.baseCredits ?? q.holdCredits;
    let usageMissing = false;
    for (const m of q.meters) {
      const units = billedUnits?.[m.driver];
      usageMissing ||= units === undefined;
      credits += unitCredits(m, units ?? m.maxUnits);
    }
    const units = billedUnits ? { billedUnits } : {};
    return credits > q.holdCredits
      ? { credits: q.holdCredits, ...units, overHold: true, usageMissing }
      : { credits, ...units, overHold: false, usageMissing };
  }
  if (!usage) return { credits: q.holdCredits, overHold: false, usageMissing: true };
  const cost = Math.max(1, tokenCredits(q.model, usage.inputTokens, usage.outputTokens));
  return cost > q.holdCredits
    ? { credits: q.holdCredits, usage, overHold: true, usageMissing: false }
    : { credits: cost, usage, overHold: false, usageMissing: false };
}

/** Credits for a token count at the model's prices, rounded up; exact (prices are whole milli-credits per 1M tokens). */
export function tokenCredits(model: ModelPrice, inputTokens: number, outputTokens: number): number {
  const milli = (creditsPerMillion: number) => BigInt(Math.round(creditsPerMillion * 1000));
  const total =
    BigInt(inputTokens) * milli(model.inputCreditsPerMillionTokens) + BigInt(outputTokens) * milli(model.outputCreditsPerMillionTokens);
  const unit = 1_000_000_000n; // 1M tokens x 1000 milli-credits
  return Number((total + unit - 1n) / unit);
}

/** Most tokens a chat input can count as: its UTF-8 bytes (each token covers at least one) plus the chat format's own tokens. */
export function inputTokenBound(messages: unknown): number {
  if (!Array.isArray(messages)) return REPLY_PRIMING_TOKENS;
  let tokens = REPLY_PRIMING_TOKENS;
  for (const m of messages) {
    tokens += MESSAGE_OVERHEAD_TOKENS;
    if (typeof m !== "object" || m === null) continue;
    for (const part of ["role", "content", "name"] as const) {
      const text = (m as Record<string, unknown>)[part];
      if (typeof text === "string") tokens += Buffer.byteLength(text, "utf8");
    }
  }
  return tokens;
}

/**
 * Why an input the route's execute contract accepts could make the vendor bill more than the hold;
 * empty when it cannot. Only routes on our own credentials (direct, managed) can: a paid rail never
 * pays a seller more than the route's price. A per-token route must list priced models with output
 * caps, bound output with an integer max_tokens, and take no field the quote does not account for. A
 * per-call route must take bounded input: every string capped (maxLength or an enum), every array
 * capped in items and in each item, every object by its fields or its JSON length.
 */
export function unboundedBill(route: Route, execute: OperationContract | undefined): string[] {
  if (route.networkKey !== "direct" || route.routeMode !== "managed") return [];
  if (!execute) return ["it has no execute contract to bound its input"];
  const drivers = (route.billDrivers ?? []).flatMap(driverProblems);
  if (route.billing === "per_token") return [...drivers, ...perTokenProblems(route, execute)];
  return [...drivers, ...execute.fields.flatMap((f) => fieldProblems(f, f.name))];
}

/**
 * A declared bill driver that an accepted input could push past the hold: one nothing bounds, or a
 * vendor cap without the cap or the unit price the hold is computed from.
 */
function driverProblems(d: BillDriver): string[] {
  switch (d.bound) {
    case "contract":
    case "pinned":
      return [];
    case "vendor_cap":
      if (!(d.maxUnits > 0)) return [`${d.driver}: a vendor cap without maxUnits (the cap the adapter sends)`];
      return d.creditsPerMillionUnits > 0 ? [] : [`${d.driver}: a vendor cap without a price per unit to hold for`];
    default:
      return [`${d.driver}: the vendor bills by it and nothing bounds it (send the vendor's cap and meter it, or pin it)`];
  }
}

function perTokenProblems(route: Route, execute: OperationContract): string[] {
  const problems: string[] = [];
  if (route.models.length === 0) problems.push("it bills per token but lists no models");
  for (const m of route.models) {
    if (!(m.maxOutputTokens > 0)) problems.push(`${m.model} has no output cap (maxOutputTokens)`);
    if (!(m.inputCreditsPerMillionTokens > 0 && m.outputCreditsPerMillionTokens > 0)) problems.push(`${m.model} has no per-token prices`);
    if (!(m.outputTokensPerSecond > 0))
      problems.push(`${m.model} has no outputTokensPerSecond: max_tokens cannot be kept to what arrives before the deadline`);
  }
  const maxTokens = execute.fields.find((f) => f.name === MAX_TOKENS_FIELD);
  if (maxTokens?.type !== "integer" || maxTokens.min === undefined || maxTokens.min < 1)
    problems.push(`${MAX_TOKENS_FIELD} must be an integer field with min 1: it bounds the output bill`);
  for (const f of execute.fields) {
    if (!(f.name in METERED_FIELDS)) problems.push(`${f.name}: the per-token quote does not account for this field`);
    if (f.name === "messages") {
      for (const item of f.fields)
        if (!MESSAGE_FIELDS.has(item.name))
          problems.push(`messages[].${item.name}: the per-token quote does not count this part of a message`);
      if (f.fields.some((item) => item.type !== "string")) problems.push("messages[]: the quote counts text parts only");
    }
  }
  return problems;
}

function fieldProblems(f: FieldContract, at: string): string[] {
  switch (f.type) {
    case "string":
      return f.maxLength !== undefined || f.enumValues.length > 0 ? [] : [`${at}: a string without maxLength`];
    case "number":
    case "integer":
    case "boolean":
      return [];
    case "object":
      if (f.fields.length > 0) return f.fields.flatMap((child) => fieldProblems(child, `${at}.${child.name}`));
      return f.maxLength !== undefined ? [] : [`${at}: a free-form object without maxLength`];
    case "array": {
      const problems = f.maxLength === undefined ? [`${at}: an array without maxLength`] : [];
      const items = `${at}[]`;
      if (f.itemsType === "string") {
        if (f.itemMaxLength === undefined && f.enumValues.length === 0) problems.push(`${items}: string items without itemMaxLength`);
      } else if (f.itemsType === "object") {
        if (f.fields.length > 0) problems.push(...f.fields.flatMap((child) => fieldProblems(child, `${items}.${child.name}`)));
        else problems.push(`${items}: free-form object items`);
      } else if (f.itemsType !== "number" && f.itemsType !== "integer" && f.itemsType !== "boolean") {
        problems.push(`${items}: items of any type`);
      }
      return problems;
    }
    default:
      return [`${at}: a value of any type`];
  }
}
