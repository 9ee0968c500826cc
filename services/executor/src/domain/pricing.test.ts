// The pricing pair: quote (the hold: the most an input can cost) and meter (the capture: what the
// vendor's usage says), and the rule that no accepted input can cost more than the hold.
import { BillDriver, FieldContract, ModelPrice, OperationContract, Route } from "@agentic/proto/catalog/v1";
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  inputTokenBound,
  meter,
  MESSAGE_OVERHEAD_TOKENS,
  quote,
  QuoteRefusal,
  REPLY_PRIMING_TOKENS,
  servedModels,
  tokenCredits,
  tokensWithinDeadline,
  unboundedBill,
  unitsIn,
} from "./pricing";

const mini = ModelPrice.fromPartial({
  model: "gpt-4o-mini",
  inputCreditsPerMillionTokens: 187.5,
  outputCreditsPerMillionTokens: 750,
  maxOutputTokens: 16384,
  outputTokensPerSecond: 60,
});
const big = ModelPrice.fromPartial({
  model: "gpt-4o",
  inputCreditsPerMillionTokens: 3125,
  outputCreditsPerMillionTokens: 12500,
  maxOutputTokens: 16384,
  outputTokensPerSecond: 50,
});
const reasoner = ModelPrice.fromPartial({
  model: "r1",
  inputCreditsPerMillionTokens: 687.5,
  outputCreditsPerMillionTokens: 2737.5,
  maxOutputTokens: 8192,
  maxReasoningTokens: 32768,
});
const metered = Route.fromPartial({
  routeKey: "models.chat.complete.openai",
  networkKey: "direct",
  routeMode: "managed",
  startingCostCredits: 1,
  billing: "per_token",
  models: [mini, big],
});
const perCallModels = Route.fromPartial({
  routeKey: "models.chat.complete.deepseek.mpp",
  networkKey: "mpp",
  routeMode: "managed",
  startingCostCredits: 2,
  billing: "per_call",
  models: [ModelPrice.fromPartial({ model: "deepseek-chat", maxOutputTokens: 8192 })],
});
const email = Route.fromPartial({
  routeKey: "email.send.resend",
  networkKey: "direct",
  routeMode: "managed",
  startingCostCredits: 10,
  billing: "per_call",
});

/** A route billed by the tokens its vendor returns, as web.fetch.jina: 1 credit covers 16k; capped at 100k, at 62.5 credits per 1M. */
const pageFetch = Route.fromPartial({
  routeKey: "web.fetch.jina",
  networkKey: "direct",
  routeMode: "managed",
  startingCostCredits: 1,
  billing: "per_call",
  billDrivers: [
    { driver: "input", bound: "contract" },
    { driver: "output_tokens", bound: "vendor_cap", maxUnits: 100_000, includedUnits: 16_000, creditsPerMillionUnits: 62.5 },
  ],
});

const chat = (content: string, extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o",
  messages: [{ role: "user", content }],
  ...extra,
});

describe("quote", () => {
  it("holds a per-call route's price and sends the input unchanged", () => {
    const input = { to: "ada@example.com" };
    expect(quote(email, input)).toEqual({ billing: "per_call", holdCredits: 10, input });
    expect(quote(perCallModels, { model: "deepseek-chat", messages: [] })).toMatchObject({ billing: "per_call", holdCredits: 2 });
  });

  it("holds a per-token route at its worst case: input bytes plus overhead, and max_tokens, at the model's prices, rounded up", () => {
    const q = quote(metered, chat("x".repeat(100_000), { max_tokens: 4000 }));
    const inputTokens = REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS + "user".length + 100_000;
    // 100,011 x 3125 + 4,000 x 12,500 credits per 1M tokens = 312.534375 + 50 -> 363
    expect(q).toMatchObject({
      billing: "per_token",
      holdCredits: 363,
      maxInputTokens: inputTokens,
      maxOutputTokens: 4000,
      input: { max_tokens: 4000 },
    });
  });

  it("sends and holds the default max_tokens when the caller gives none, never above the model's cap", () => {
    const q = quote(metered, chat("hi"));
    expect(q).toMatchObject({ maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS, input: { max_tokens: DEFAULT_MAX_OUTPUT_TOKENS } });
    expect(q.holdCredits).toBe(13); // 1,024 x 12,500 / 1M = 12.8 -> 13
    const tiny = Route.fromPartial({ ...metered, models: [{ ...mini, maxOutputTokens: 100 }] });
    expect(quote(tiny, { ...chat("hi"), model: "gpt-4o-mini" })).toMatchObject({ maxOutputTokens: 100, input: { max_tokens: 100 } });
  });

  it("counts a reasoning model's chain of thought beyond max_tokens", () => {
    const route = Route.fromPartial({ ...metered, models: [reasoner] });
    const q = quote(route, { model: "r1", messages: [], max_tokens: 100 });
    expect(q).toMatchObject({ maxOutputTokens: 100 + 32768, input: { max_tokens: 100 } });
    expect(q.holdCredits).toBe(tokenCredits(reasoner, REPLY_PRIMING_TOKENS, 32868));
  });

  it("bounds input by UTF-8 bytes, so text denser than 4 characters a token is still covered", () => {
    // 1,000 emoji are 2,000 UTF-16 units and 4,000 bytes; a byte-level tokenizer can need up to 4,000 tokens.
    expect(inputTokenBound([{ role: "user", content: "😀".repeat(1000) }])).toBe(REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS + 4 + 4000);
    expect(inputTokenBound([{ role: "user", content: "日本".repeat(10), name: "ada" }])).toBe(
      REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS + 4 + 60 + 3,
    );
  });

  it("holds at least 1 credit", () => {
    const cheap = Route.fromPartial({
      ...metered,
      models: [{ ...mini, inputCreditsPerMillionTokens: 0.001, outputCreditsPerMillionTokens: 0.001 }],
    });
    expect(quote(cheap, { ...chat("hi"), model: "gpt-4o-mini", max_tokens: 1 }).holdCredits).toBe(1);
  });

  it("refuses a model the route does not serve and max_tokens above the model's cap, naming the field", () => {
    expect(() => quote(metered, chat("hi", { model: "deepseek-chat" }))).toThrow(
      new QuoteRefusal("model", 'models.chat.complete.openai does not serve "deepseek-chat"; it serves gpt-4o-mini, gpt-4o'),
    );
    expect(() => quote(metered, chat("hi", { max_tokens: 16385 }))).toThrow(
      expect.objectContaining({ field: "max_tokens", message: "gpt-4o accepts at most 16384 output tokens (got 16385)" }),
    );
    // The cap holds on per-call model routes too: the vendor would refuse it after the seller was paid.
    expect(() => quote(perCallModels, { model: "deepseek-chat", messages: [], max_tokens: 8193 })).toThrow(
      expect.objectContaining({ field: "max_tokens" }),
    );
  });
});

describe("meter", () => {
  const q = quote(metered, chat("hello", { max_tokens: 1000 })); // hold: ceil(1000 x 12,500 / 1M + ...) = 13

  it("charges a per-token call its usage at the model's prices, rounded up, at least 1", () => {
    expect(q.holdCredits).toBe(13);
    expect(meter(q, { inputTokens: 2000, outputTokens: 500 })).toEqual({
      credits: 13,
      usage: { inputTokens: 2000, outputTokens: 500 },
      overHold: false,
      usageMissing: false,
    }); // 6.25 + 6.25 = 12.5 -> 13
    expect(meter(q, { inputTokens: 1000, outputTokens: 100 })).toMatchObject({ credits: 5, overHold: false }); // 3.125 + 1.25 -> 5
    expect(meter(q, { inputTokens: 10, outputTokens: 1 })).toMatchObject({ credits: 1 });
  });

  it("never charges more than the hold, and flags a vendor usage beyond it", () => {
    expect(meter(q, { inputTokens: 1_000_000, outputTokens: 1000 })).toEqual({
      credits: 13,
      usage: { inputTokens: 1_000_000, outputTokens: 1000 },
      overHold: true,
      usageMissing: false,
    });
  });

  it("charges the hold when a per-token vendor reports no usage", () => {
    expect(meter(q, undefined)).toEqual({ credits: 13, overHold: false, usageMissing: true });
  });

  it("charges a per-call route its price, passing on the tokens a vendor reported", () => {
    const fixed = quote(perCallModels, { model: "deepseek-chat", messages: [] });
    expect(meter(fixed, { inputTokens: 5, outputTokens: 7 })).toEqual({
      credits: 2,
      usage: { inputTokens: 5, outputTokens: 7 },
      overHold: false,
      usageMissing: false,
    });
    expect(meter(quote(email, {}), undefined)).toEqual({ credits: 10, overHold: false, usageMissing: false });
  });
});

describe("tokenCredits", () => {
  it("is exact on fractional prices (no floating-point rounding up of whole results)", () => {
    expect(tokenCredits(mini, 1_000_000, 0)).toBe(188); // 187.5 -> 188
    expect(tokenCredits(mini, 8_000_000, 0)).toBe(1500); // exactly 1500, not 1501
    expect(
      tokenCredits(
        ModelPrice.fromPartial({ inputCreditsPerMillionTokens: 0.1, outputCreditsPerMillionTokens: 0.2 }),
        10_000_000,
        5_000_000,
      ),
    ).toBe(2); // 1 + 1
    expect(tokenCredits(mini, 0, 0)).toBe(0);
  });
});

describe("output bounded by the deadline", () => {
  const limits = { providerTimeoutMs: 15_000 };

  it("caps max_tokens to what the model emits before the provider deadline: (15 s - 2 s) x 50 tokens/s = 650 for gpt-4o", () => {
    expect(tokensWithinDeadline(big, 15_000)).toBe(650);
    expect(quote(metered, chat("hi", { max_tokens: 650 }), limits)).toMatchObject({ input: { max_tokens: 650 } });
  });

  it("refuses a max_tokens that cannot arrive in time, naming the field, before anything is held", () => {
    const refusal = (() => {
      try {
        quote(metered, chat("hi", { max_tokens: 4_000 }), limits);
      } catch (err) {
        return err;
      }
    })();
    expect(refusal).toBeInstanceOf(QuoteRefusal);
    expect(refusal).toMatchObject({ field: "max_tokens" });
    expect((refusal as Error).message).toBe("gpt-4o emits at most 650 output tokens within the 15000 ms provider deadline (got 4000)");
  });

  it("sends no more than fits when the caller names no max_tokens", () => {
    expect(quote(metered, chat("hi"), limits)).toMatchObject({ input: { max_tokens: 650 }, maxOutputTokens: 650 });
    expect(quote(metered, chat("hi", { model: "gpt-4o-mini" }), { providerTimeoutMs: 60_000 })).toMatchObject({
      input: { max_tokens: DEFAULT_MAX_OUTPUT_TOKENS },
    });
  });
});

describe("routes metered by what the vendor returns", () => {
  it("hold the price plus every unit up to the vendor cap the adapter sends: 1 + 84k x 62.5 / 1M = 1 + 5.25 -> 7", () => {
    expect(quote(pageFetch, { url: "https://example.com" })).toMatchObject({ billing: "per_call", holdCredits: 7, baseCredits: 1 });
  });

  it("charge the units the vendor reports beyond those the price covers, rounded up, never above the hold", () => {
    const q = quote(pageFetch, { url: "https://example.com" });
    expect(meter(q, undefined, { output_tokens: 5_000 })).toMatchObject({ credits: 1, overHold: false, usageMissing: false });
    // 50,000 - 16,000 = 34,000 x 62.5 / 1M = 2.125 -> 3
    expect(meter(q, undefined, { output_tokens: 50_000 })).toMatchObject({ credits: 4, billedUnits: { output_tokens: 50_000 } });
    expect(meter(q, undefined, { output_tokens: 100_000 }).credits).toBe(7);
    // A report above the cap it was sent cannot be billed beyond it (the vendor refuses past its budget).
    expect(meter(q, undefined, { output_tokens: 400_000 })).toMatchObject({ credits: 7, overHold: false });
  });

  it("charge the hold when the vendor reports nothing, and say so", () => {
    const q = quote(pageFetch, { url: "https://example.com" });
    expect(meter(q, undefined, {})).toEqual({ credits: 7, billedUnits: {}, overHold: false, usageMissing: true });
    expect(meter(q, undefined)).toMatchObject({ credits: 7, usageMissing: true });
  });
});

describe("servedModels", () => {
  it("lists every model once, sorted", () => {
    expect(servedModels([metered, perCallModels, email, metered])).toEqual(["deepseek-chat", "gpt-4o", "gpt-4o-mini"]);
  });
});

describe("unboundedBill", () => {
  const field = (f: Partial<FieldContract>) => FieldContract.fromPartial(f);
  const contract = (...fields: FieldContract[]) => OperationContract.fromPartial({ fields });
  const chatContract = contract(
    field({ name: "model", type: "string", maxLength: 200 }),
    field({
      name: "messages",
      type: "array",
      itemsType: "object",
      maxLength: 500,
      fields: [field({ name: "role", type: "string" }), field({ name: "content", type: "string", maxLength: 200_000 })],
    }),
    field({ name: "max_tokens", type: "integer", min: 1, max: 32768 }),
    field({ name: "stop", type: "array", itemsType: "string", maxLength: 4 }),
    field({ name: "routeKey", type: "string", maxLength: 200 }),
  );

  it("accepts a per-token route whose quote accounts for every field (message size is metered, not capped)", () => {
    expect(unboundedBill(metered, chatContract)).toEqual([]);
  });

  it("names a field the per-token quote does not account for, and a missing output bound", () => {
    const withTools = contract(
      ...chatContract.fields.filter((f) => f.name !== "max_tokens"),
      field({ name: "tools", type: "array", itemsType: "object", maxLength: 10 }),
    );
    expect(unboundedBill(metered, withTools)).toEqual([
      "max_tokens must be an integer field with min 1: it bounds the output bill",
      "tools: the per-token quote does not account for this field",
    ]);
    const uncapped = Route.fromPartial({ ...metered, models: [{ ...mini, maxOutputTokens: 0 }] });
    expect(unboundedBill(uncapped, chatContract)).toEqual(["gpt-4o-mini has no output cap (maxOutputTokens)"]);
  });

  it("accepts a per-call route whose every string, array, item and object is capped", () => {
    const bounded = contract(
      field({ name: "to", type: "string", maxLength: 320 }),
      field({ name: "kind", type: "string", enumValues: ["a", "b"] }),
      field({ name: "cc", type: "array", itemsType: "string", maxLength: 50, itemMaxLength: 320 }),
      field({
        name: "files",
        type: "array",
        itemsType: "object",
        maxLength: 10,
        fields: [field({ name: "name", type: "string", maxLength: 255 })],
      }),
      field({ name: "schema", type: "object", maxLength: 10_000 }),
      field({ name: "n", type: "integer" }),
    );
    expect(unboundedBill(email, bounded)).toEqual([]);
  });

  it("names every uncapped part of a per-call route's contract", () => {
    const loose = contract(
      field({ name: "text", type: "string" }),
      field({ name: "cc", type: "array", itemsType: "string" }),
      field({ name: "files", type: "array", itemsType: "object", maxLength: 10, fields: [field({ name: "data", type: "string" })] }),
      field({ name: "schema", type: "object" }),
      field({ name: "any", type: "unknown" }),
    );
    expect(unboundedBill(email, loose)).toEqual([
      "text: a string without maxLength",
      "cc: an array without maxLength",
      "cc[]: string items without itemMaxLength",
      "files[].data: a string without maxLength",
      "schema: a free-form object without maxLength",
      "any: a value of any type",
    ]);
  });

  it("fails a route whose vendor bill grows with its output when nothing bounds it, whatever its input contract", () => {
    const bounded = contract(field({ name: "url", type: "string", maxLength: 2048 }));
    expect(unboundedBill(pageFetch, bounded)).toEqual([]);
    const unbounded = (d: Partial<BillDriver>) =>
      Route.fromPartial({
        ...pageFetch,
        billDrivers: [
          { driver: "input", bound: "contract" },
          { driver: "output_tokens", ...d },
        ],
      });
    expect(unboundedBill(unbounded({ bound: "none" }), bounded)).toEqual([
      "output_tokens: the vendor bills by it and nothing bounds it (send the vendor's cap and meter it, or pin it)",
    ]);
    expect(unboundedBill(unbounded({ bound: "" }), bounded)).toHaveLength(1);
    expect(unboundedBill(unbounded({ bound: "vendor_cap", creditsPerMillionUnits: 62.5 }), bounded)).toEqual([
      "output_tokens: a vendor cap without maxUnits (the cap the adapter sends)",
    ]);
    expect(unboundedBill(unbounded({ bound: "vendor_cap", maxUnits: 100_000 }), bounded)).toEqual([
      "output_tokens: a vendor cap without a price per unit to hold for",
    ]);
  });

  it("fails a per-token model without a speed: its max_tokens could outlast the deadline", () => {
    const slow = Route.fromPartial({ ...metered, models: [{ ...mini, outputTokensPerSecond: 0 }] });
    expect(unboundedBill(slow, chatContract)).toEqual([
      "gpt-4o-mini has no outputTokensPerSecond: max_tokens cannot be kept to what arrives before the deadline",
    ]);
  });

  it("leaves routes off our credentials alone: a paid rail never pays more than the price, byo bills the caller", () => {
    const loose = contract(field({ name: "text", type: "string" }));
    expect(unboundedBill(Route.fromPartial({ ...email, networkKey: "mpp" }), loose)).toEqual([]);
    expect(unboundedBill(Route.fromPartial({ ...email, routeMode: "byo" }), loose)).toEqual([]);
    expect(unboundedBill(email, undefined)).toEqual(["it has no execute contract to bound its input"]);
  });
});

describe("per-unit routes (the vendor bills per recipient)", () => {
  const perRecipient = {
    routeKey: "email.send.resend",
    startingCostCredits: 10,
    models: [],
    billing: "per_unit",
    billedPer: { unit: "recipient", fields: ["to", "cc", "bcc"] },
  } as unknown as Parameters<typeof quote>[0];

  it("holds the price times the recipients the request names, and charges exactly that", () => {
    const q = quote(perRecipient, { to: "a@x.co", cc: ["b@x.co", "c@x.co"], bcc: ["d@x.co"] });
    expect(q.holdCredits).toBe(40);
    expect(meter(q, undefined).credits).toBe(40);
    expect(quote(perRecipient, { to: "a@x.co" }).holdCredits).toBe(10);
  });

  it("counts at least one unit", () => {
    expect(unitsIn({}, ["to", "cc"])).toBe(1);
    expect(unitsIn({ to: "a@x.co", cc: [] }, ["to", "cc"])).toBe(1);
  });
});
