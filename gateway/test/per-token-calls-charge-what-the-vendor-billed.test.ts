// The OpenAI route runs on the platform's own key and OpenAI bills it per token: through the gateway,
// real services and the provider sandbox, each call is held at the most its request can cost at the
// model's prices and charged what the vendor's usage says (the rest returned), and no request the
// contract accepts can cost the platform more than the caller is held for, nor ask the vendor for more
// output than it can produce before the provider deadline (OpenAI bills what it generates after we gave up).
import { rawRequest } from "./raw-http";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, execute, expectBalanceEqualsJournal, journalKinds, newUser, settled, usage, type TestUser } from "./execute-helpers";
import { BASE_PATH } from "./harness";

/** gpt-4o at the catalog's prices: credits per 1M tokens (list price + 25%). */
const GPT4O = { input: 3125, output: 12500 };
/** gpt-4o's output within the default 15 s provider deadline: (15 s - 2 s) x its 50 tokens/s (the catalog's outputTokensPerSecond). */
const GPT4O_TOKENS_IN_TIME = 650;
/** The gateway's body limit in these tests (harness BODY_LIMIT). */
const BODY_LIMIT_BYTES = 64 * 1024;

const credits = (inputTokens: number, outputTokens: number) =>
  Math.ceil((inputTokens * GPT4O.input + outputTokens * GPT4O.output) / 1_000_000);

describe("a per-token route", () => {
  let sys: BackedSystem;
  let user: TestUser;
  /** gpt-4o's list prices in USD per 1M tokens, as the catalog records them (internal: not on the REST routes). */
  let vendor: { input: number; output: number };

  beforeAll(async () => {
    sys = await startBackedSystem();
    const { routes } = await sys.catalog.call.listCapabilityRoutes({ domainKey: "models", capabilityId: "chat-complete" });
    const gpt4o = routes.find((r) => r.routeKey === "models.chat.complete.openai")?.models.find((m) => m.model === "gpt-4o");
    vendor = { input: gpt4o!.vendorInputUsdPerMillionTokens, output: gpt4o!.vendorOutputUsdPerMillionTokens };
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 1_000);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  /** The most OpenAI can bill for a request, in credits: every byte we send a token (a byte-level tokenizer's worst), plus max_tokens. */
  const vendorWorstCase = (body: object, maxTokens: number) =>
    ((Buffer.byteLength(JSON.stringify(body)) * vendor.input + maxTokens * vendor.output) / 1_000_000) * 1000;
  const openaiCalls = () => sys.sandbox.control.calls("openai");
  const executionOf = async (executionId: string) =>
    ((await (await sys.authed(`/executions/${executionId}`, { key: user.key })).json()) as { execution: any }).execution;

  it("charges the tokens the vendor reported at the model's prices, returns the rest of the hold, and shows them on the answer and the usage item", async () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(800); // 36,000 bytes
    const body = {
      model: "gpt-4o",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: text },
      ],
      max_tokens: 600,
    };
    const res = await execute(sys, user, "models", "chat-complete", body);
    expect(res.status).toBe(200);

    // The vendor's usage, as it reported it, and what it costs at gpt-4o's prices.
    const { promptTokens, completionTokens } = res.body.data.usage;
    expect(res.body.usage).toEqual({ inputTokens: promptTokens, outputTokens: completionTokens });
    const charge = credits(promptTokens, completionTokens);
    expect(charge).toBeGreaterThan(1);
    expect(res.body).toMatchObject({ provider: "openai", routeKey: "models.chat.complete.openai", creditsCharged: charge });

    // OpenAI was asked for exactly the max_tokens that was held for.
    expect(openaiCalls().map((c) => c.body)).toEqual([expect.objectContaining({ model: "gpt-4o", max_tokens: 600 })]);

    await settled(sys, user.userId);
    const [attempt] = (await executionOf(res.headers.get("execution-id")!)).attempts;
    expect(attempt).toMatchObject({ state: "captured", chargedCredits: charge });
    expect(attempt.heldCredits).toBeGreaterThanOrEqual(vendorWorstCase(body, 600));
    expect(await balance(sys, user)).toBe(1_000 - charge);
    expect(await usage(sys, user)).toEqual([
      expect.objectContaining({
        routeKey: "models.chat.complete.openai",
        status: "succeeded",
        creditsCharged: charge,
        inputTokens: promptTokens,
        outputTokens: completionTokens,
      }),
    ]);
    expect(await journalKinds(sys, user)).toEqual(["grant", "hold", "capture"]);
  });

  it("asks the vendor for what arrives before the deadline when the caller names no max_tokens (650 of the default 1024), and holds for exactly that", async () => {
    const res = await execute(sys, user, "models", "chat-complete", { model: "gpt-4o", messages: [{ role: "user", content: "Say hi" }] });
    expect([res.status, res.body.creditsCharged]).toEqual([200, 1]);
    expect(openaiCalls().map((c) => c.body)).toEqual([expect.objectContaining({ max_tokens: GPT4O_TOKENS_IN_TIME })]);
    await settled(sys, user.userId);
    // 650 x 12,500 + (3 + 4 + 4 + 6) x 3,125 credits per 1M tokens = 8.18 -> 9 held; 1 charged, 8 returned.
    expect((await executionOf(res.headers.get("execution-id")!)).attempts).toEqual([
      expect.objectContaining({ heldCredits: 9, chargedCredits: 1 }),
    ]);
    expect(await balance(sys, user)).toBe(999);
  });

  it("refuses a max_tokens the model cannot emit before the provider deadline with a 400 naming the field: nothing held, OpenAI not called", async () => {
    const res = await execute(sys, user, "models", "chat-complete", {
      model: "gpt-4o",
      messages: [{ role: "user", content: "Write a novel" }],
      max_tokens: 16_384,
    });
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.error).toContain(
      `max_tokens: gpt-4o emits at most ${GPT4O_TOKENS_IN_TIME} output tokens within the 15000 ms provider deadline`,
    );
    expect(openaiCalls()).toEqual([]);
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
  });

  it("refuses the largest request the contract accepts at the edge: 500 messages of 200,000 characters are far over the body limit (413)", async () => {
    const message = `{"role":"user","content":"${"x".repeat(200_000)}"}`;
    const bytes = '{"model":"gpt-4o","max_tokens":16384,"messages":[]}'.length + 500 * message.length + 499;
    const head = `POST ${BASE_PATH}/domains/models/capabilities/chat-complete/execute HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.key}\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\n\r\n`;
    const answer = await rawRequest(Number(new URL(sys.gw.origin).port), [
      head,
      `{"model":"gpt-4o","max_tokens":16384,"messages":[${message}`,
    ]);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(openaiCalls()).toEqual([]);
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
  });

  it("holds the largest request the edge lets through at no less than the vendor's worst case: refused when the wallet cannot cover it, run when it can", async () => {
    // Emoji are 4 UTF-8 bytes each, the densest text per character: a tokenizer may bill one token per byte.
    const body = { model: "gpt-4o", messages: [{ role: "user", content: "😀".repeat(15_000) }], max_tokens: GPT4O_TOKENS_IN_TIME };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(BODY_LIMIT_BYTES);
    const worst = vendorWorstCase(body, GPT4O_TOKENS_IN_TIME);

    user = await newUser(sys, 150);
    const short = await execute(sys, user, "models", "chat-complete", body);
    expect([short.status, short.body.code]).toEqual([402, "CREDITS_REQUIRED"]);
    const required = Number(/can cost up to (\d+) credits/.exec(short.body.error)?.[1]);
    expect(required).toBeGreaterThanOrEqual(worst);
    expect(openaiCalls()).toEqual([]);
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
    await expectBalanceEqualsJournal(sys, user);

    user = await newUser(sys, 1_000);
    const paid = await execute(sys, user, "models", "chat-complete", body);
    expect(paid.status).toBe(200);
    await settled(sys, user.userId);
    const [attempt] = (await executionOf(paid.headers.get("execution-id")!)).attempts;
    expect(attempt.heldCredits).toBe(required);
    const charge = credits(paid.body.usage.inputTokens, paid.body.usage.outputTokens);
    expect(attempt).toMatchObject({ state: "captured", chargedCredits: charge });
    expect(charge).toBeLessThanOrEqual(attempt.heldCredits);
    expect(await balance(sys, user)).toBe(1_000 - charge);
  });
});
