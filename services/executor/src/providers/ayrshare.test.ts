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
    expect(result.data.quoteId).toMatch(/^quo_[A-Za-z0-9_-]{22}$/);
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
    expect(first.result.data.quoteId).toBe(second.result.data.quoteId);
    expect(first.result.data).toMatchObject({ creditsEstimate: 3 * DEFAULT_CREDITS_PER_CHANNEL, approvalRequired: true });
    expect(first.res.payment).toEqual({ rail: "api_key" });
  });
});
