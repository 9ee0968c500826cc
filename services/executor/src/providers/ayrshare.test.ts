import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { AyrshareAdapter, DEFAULT_CREDITS_PER_CHANNEL } from "./ayrshare";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = new AyrshareAdapter(25, () => Date.parse("2026-11-22T10:00:00Z"));
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("Ayrshare adapter (broadcast.message.quote)", () => {
  it("builds the length check without posting, and refuses unknown channels", () => {
    expect(
      adapter.buildRequest(
        "broadcast.message.quote",
        { channels: ["x", "linkedin"], text: "Launch day" },
        { baseUrl: "https://api.ayrshare.com", credentials: { apiKey: "ay_1" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.ayrshare.com/api/validate/postLength",
      headers: { Authorization: "Bearer ay_1" },
      body: { post: "Launch day" },
    });
    expect(() => adapter.buildRequest("broadcast.message.quote", { channels: ["myspace"], text: "x" }, { baseUrl: "https://x" })).toThrow(
      /unsupported channels: myspace/,
    );
  });

  it("quotes per channel, prices only valid channels, and always needs approval", () => {
    const body = {
      twitterWeightedLength: 300,
      twitterValid: false,
      linkedInWeightedLength: 300,
      linkedInValid: true,
      maxCharLimits: { twitter: 280, linkedin: 3000 },
    };
    const result = adapter.parseResponse("broadcast.message.quote", response(200, body), {
      channels: ["X", "linkedin"],
      text: "t".repeat(300),
    });
    expect(result).toMatchObject({
      status: "quoted",
      data: {
        perChannel: [
          { channel: "x", weightedLength: 300, maxLength: 280, valid: false, creditsEstimate: 0 },
          { channel: "linkedin", weightedLength: 300, maxLength: 3000, valid: true, creditsEstimate: 25 },
        ],
        creditsEstimate: 25,
        expiresAt: "2026-11-22T10:15:00.000Z",
        approvalRequired: true,
      },
    });
    expect(result.data.broadcastQuoteId).toMatch(/^bq_[A-Za-z0-9_-]{22}$/);
    expect(() =>
      adapter.parseResponse(
        "broadcast.message.quote",
        response(403, { action: "authorization", status: "error", code: 102, message: "API Key not valid." }),
        { channels: ["x"], text: "t" },
      ),
    ).toThrow(expect.objectContaining({ blame: "provider", vendorCode: "102" }));
  });

  it("quotes through the sandbox with the same id for the same channels and text", async () => {
    const input = { channels: ["x", "bluesky", "linkedin"], text: "We ship today 🚀 https://example.com/launch" };
    const first = await routes.execute("ayrshare", "direct", "broadcast.message.quote", input);
    const second = await routes.execute("ayrshare", "direct", "broadcast.message.quote", {
      ...input,
      channels: ["linkedin", "x", "bluesky"],
    });
    expect(first.result.data.broadcastQuoteId).toBe(second.result.data.broadcastQuoteId);
    expect(first.result.data).toMatchObject({ creditsEstimate: 3 * DEFAULT_CREDITS_PER_CHANNEL, approvalRequired: true });
    expect(first.res.payment).toEqual({ rail: "api_key" });
  });
});

describe("Ayrshare adapter (broadcast.message.send)", () => {
  const post = { channels: ["x", "linkedin"], text: "We just shipped v2 of our API." };
  const quoted = async () =>
    (await routes.execute("ayrshare", "direct", "broadcast.message.quote", post)).result.data.broadcastQuoteId as string;

  it("posts the quoted text to Ayrshare's platforms with the execution's idempotency key", async () => {
    const quoteId = await quoted();
    const req = adapter.buildRequest(
      "broadcast.message.send",
      { ...post, broadcastQuoteId: quoteId, approved: true, scheduleAt: "2026-12-01T09:00:00Z" },
      { baseUrl: "https://api.ayrshare.com", credentials: { apiKey: "ayr_1" }, idempotencyKey: "exe_9" },
    );
    expect(req).toEqual({
      method: "POST",
      url: "https://api.ayrshare.com/api/post",
      headers: { Authorization: "Bearer ayr_1" },
      body: { post: post.text, platforms: ["twitter", "linkedin"], scheduleDate: "2026-12-01T09:00:00Z", idempotencyKey: "exe_9" },
    });
  });

  it("refuses a post no human approved, and one that is not what was quoted", async () => {
    const quoteId = await quoted();
    const ctx = { baseUrl: "https://x" };
    expect(() => adapter.buildRequest("broadcast.message.send", { ...post, broadcastQuoteId: quoteId, approved: false }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", blame: "input", field: "approved" }),
    );
    expect(() =>
      adapter.buildRequest("broadcast.message.send", { ...post, text: "Something else", broadcastQuoteId: quoteId, approved: true }, ctx),
    ).toThrow(expect.objectContaining({ kind: "invalid_input", field: "broadcastQuoteId" }));
    expect(() =>
      adapter.buildRequest("broadcast.message.send", { ...post, channels: ["x"], broadcastQuoteId: quoteId, approved: true }, ctx),
    ).toThrow(expect.objectContaining({ field: "broadcastQuoteId" }));
  });

  it("quotes then sends through the sandbox: one post per channel, and a retried execution posts nothing twice", async () => {
    const quoteId = await quoted();
    const input = { ...post, broadcastQuoteId: quoteId, approved: true };
    const first = await routes.execute("ayrshare", "direct", "broadcast.message.send", input, "exe_post_1");
    expect(first.result).toMatchObject({ status: "sent", data: { status: "success" } });
    const posts = first.result.data.posts as Array<{ channel: string; status: string; postUrl: string }>;
    expect(posts.map((p) => [p.channel, p.status])).toEqual([
      ["x", "success"],
      ["linkedin", "success"],
    ]);
    expect(posts[0]?.postUrl).toMatch(/^https:\/\/x\.com\/agentic_sandbox\/status\/\d+$/);
    const again = await routes.execute("ayrshare", "direct", "broadcast.message.send", input, "exe_post_1");
    expect(again.result.data.postId).toBe(first.result.data.postId);
  });

  it("runs the catalog's example: the quote of that text on linkedin is the example's broadcastQuoteId", async () => {
    const example = { channels: ["linkedin"], text: "We just shipped v2 of our API: faster search and cheaper email." };
    const quote = await routes.execute("ayrshare", "direct", "broadcast.message.quote", example);
    expect(quote.result.data.broadcastQuoteId).toBe("bq_D8l_3F1pYhdioZDhjNscYy");
    const sent = await routes.execute("ayrshare", "direct", "broadcast.message.send", {
      ...example,
      broadcastQuoteId: "bq_D8l_3F1pYhdioZDhjNscYy",
      approved: true,
    });
    expect(sent.result.data.posts).toEqual([
      { channel: "linkedin", status: "success", postUrl: expect.stringMatching(/^https:\/\/linkedin\.example\/posts\//) },
    ]);
  });

  it("maps Ayrshare's refusal of a too-long post to the caller's error", async () => {
    const long = { channels: ["x"], text: "a".repeat(300) };
    const quoteId = (await routes.execute("ayrshare", "direct", "broadcast.message.quote", long)).result.data.broadcastQuoteId as string;
    const err = await routes.executeError("ayrshare", "direct", "broadcast.message.send", {
      ...long,
      broadcastQuoteId: quoteId,
      approved: true,
    });
    expect(err).toMatchObject({ kind: "http_4xx", status: 400, blame: "input", vendorCode: "110" });
  });
});
