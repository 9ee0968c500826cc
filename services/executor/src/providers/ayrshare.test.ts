import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { ayrshareProvider, defineAyrshare, DEFAULT_QUOTE_TTL_MS, PROFILE_KIND } from "./ayrshare";
import { providerAdapter } from "./registry";
import { runFlowOnSandbox, served } from "./flow-route.fixture";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter = providerAdapter(
  defineAyrshare(() => Date.parse("2026-11-22T10:00:00Z")),
  { creditsPerChannel: "25" },
);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
/** What the executor adds to a quote's input once it issued the approval (domain/approvals.ts). */
const issued = { broadcastQuoteId: "bq_0123456789ABCDEFGHIJKL", broadcastQuoteExpiresAt: "2026-11-22T10:15:00.000Z" };

describe("Ayrshare adapter (broadcast.message.quote)", () => {
  it("builds the length check without posting, and refuses unknown channels or a quote no approval was issued for", () => {
    expect(
      adapter.buildRequest(
        "broadcast.message.quote",
        { channels: ["x", "linkedin"], text: "Launch day", ...issued },
        { baseUrl: "https://api.ayrshare.com", credentials: { apiKey: "ay_1" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.ayrshare.com/api/validate/postLength",
      headers: { Authorization: "Bearer ay_1" },
      body: { post: "Launch day" },
    });
    expect(() =>
      adapter.buildRequest("broadcast.message.quote", { channels: ["myspace"], text: "x", ...issued }, { baseUrl: "https://x" }),
    ).toThrow(/unsupported channels: myspace/);
    expect(() => adapter.buildRequest("broadcast.message.quote", { channels: ["x"], text: "x" }, { baseUrl: "https://x" })).toThrow(
      /no approval was issued/,
    );
  });

  it("quotes per channel, prices only valid channels, and answers the approval the executor issued", () => {
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
      ...issued,
    });
    expect(result).toMatchObject({
      status: "quoted",
      providerMessageId: issued.broadcastQuoteId,
      data: {
        broadcastQuoteId: issued.broadcastQuoteId,
        perChannel: [
          { channel: "x", weightedLength: 300, maxLength: 280, valid: false, creditsEstimate: 0 },
          { channel: "linkedin", weightedLength: 300, maxLength: 3000, valid: true, creditsEstimate: 25 },
        ],
        creditsEstimate: 25,
        expiresAt: issued.broadcastQuoteExpiresAt,
        approvalRequired: true,
      },
    });
    expect(() =>
      adapter.parseResponse(
        "broadcast.message.quote",
        response(403, { action: "authorization", status: "error", code: 102, message: "API Key not valid." }),
        { channels: ["x"], text: "t", ...issued },
      ),
    ).toThrow(expect.objectContaining({ blame: "provider", vendorCode: "102" }));
  });

  it("declares the approval a quote issues and a send requires, bound to the channels, text, media and schedule", () => {
    const [rule] = adapter.approvals ?? [];
    expect(rule).toMatchObject({
      issuedBy: "broadcast.message.quote",
      requiredBy: "broadcast.message.send",
      field: "broadcastQuoteId",
      ttlMs: DEFAULT_QUOTE_TTL_MS,
    });
    const post = { channels: ["x", "linkedin"], text: "Hi" };
    // The same post in any channel order or spelling is the same subject; any other text, channel or schedule is not.
    expect(rule!.subject({ ...post, approved: true, broadcastQuoteId: "bq_x" })).toBe(
      rule!.subject({ channels: ["LinkedIn", "twitter"], text: "Hi" }),
    );
    for (const other of [
      { text: "Hi!" },
      { channels: ["x"] },
      { scheduleAt: "2026-12-01T09:00:00Z" },
      { mediaUrls: ["https://a.example/i.png"] },
    ])
      expect(rule!.subject({ ...post, ...other })).not.toBe(rule!.subject(post));
  });
});

describe("Ayrshare adapter (broadcast.message.send)", () => {
  const post = {
    channels: ["x", "linkedin"],
    text: "We just shipped v2 of our API.",
    broadcastQuoteId: "bq_0123456789ABCDEFGHIJKL",
    approved: true,
  };

  it("posts as the caller's own profile (Profile-Key) with the execution's idempotency key", () => {
    const req = adapter.buildRequest(
      "broadcast.message.send",
      { ...post, profileId: "PROF-1", scheduleAt: "2026-12-01T09:00:00Z" },
      { baseUrl: "https://api.ayrshare.com", credentials: { apiKey: "ayr_1" }, idempotencyKey: "exe_9" },
    );
    expect(req).toEqual({
      method: "POST",
      url: "https://api.ayrshare.com/api/post",
      headers: { Authorization: "Bearer ayr_1", "Profile-Key": "PROF-1" },
      body: { post: post.text, platforms: ["twitter", "linkedin"], scheduleDate: "2026-12-01T09:00:00Z", idempotencyKey: "exe_9" },
    });
  });

  it("refuses a post no human approved, and one without a linked profile (saying how to link one)", () => {
    const ctx = { baseUrl: "https://x" };
    expect(() => adapter.buildRequest("broadcast.message.send", { ...post, profileId: "PROF-1", approved: false }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", blame: "input", field: "approved" }),
    );
    let refusal: unknown;
    try {
      adapter.buildRequest("broadcast.message.send", post, ctx);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toMatchObject({ kind: "invalid_input", field: "profileId" });
    expect((refusal as { opts: { nextActions: string[] } }).opts.nextActions.join(" ")).toMatch(
      /profile-link\/execute.*linkUrl.*profileId/s,
    );
  });
});

describe("Ayrshare adapter (broadcast.profile.link)", () => {
  it("creates the caller's profile, recorded as theirs, with its link page; then posts go to the accounts a person linked there", async () => {
    const created = served(await runFlowOnSandbox(routes, "ayrshare", "broadcast.profile.link", {}));
    expect(created).toMatchObject({
      status: "created",
      data: { created: true, linkUrl: expect.stringContaining("/ayrshare/link?"), linkExpiresAt: expect.any(String) },
    });
    const profileId = created.data.profileId as string;
    expect(created.createdResources).toEqual([{ kind: PROFILE_KIND, resourceId: profileId }]);
    expect((await fetch(`${created.data.linkUrl as string}&platforms=linkedin`)).status).toBe(200);

    // A fresh link page for the profile it owns creates nothing.
    const again = served(await runFlowOnSandbox(routes, "ayrshare", "broadcast.profile.link", { profileId }));
    expect(again).toMatchObject({ data: { profileId, created: false } });
    expect(again.createdResources).toBeUndefined();

    const input = { channels: ["linkedin"], text: "Launch", broadcastQuoteId: "bq_0123456789ABCDEFGHIJKL", approved: true, profileId };
    const sent = await routes.execute("ayrshare", "direct", "broadcast.message.send", input, "exe_post_1");
    expect(sent.result.data.posts).toEqual([
      { channel: "linkedin", status: "success", postUrl: expect.stringMatching(/^https:\/\/linkedin\.example\/posts\//) },
    ]);
    const again2 = await routes.execute("ayrshare", "direct", "broadcast.message.send", input, "exe_post_1");
    expect(again2.result.data.postId).toBe(sent.result.data.postId);
    // x was never linked to this profile: Ayrshare refuses, whatever the platform's own accounts are.
    const err = await routes.executeError("ayrshare", "direct", "broadcast.message.send", { ...input, channels: ["x"] });
    expect(err).toMatchObject({ kind: "http_4xx", status: 400, blame: "input", vendorCode: "156" });
    expect(
      routes
        .sandbox()
        .control.calls("ayrshare")
        .filter((c) => c.path === "/api/post")
        .every((c) => c.headers["profile-key"] === profileId),
    ).toBe(true);
  });

  it("is refused where profile linking is not configured", async () => {
    const unconfigured: ProviderAdapter = providerAdapter(ayrshareProvider);
    expect(() => unconfigured.buildRequest("broadcast.profile.link", {}, { baseUrl: "https://x" })).toThrow(/AYRSHARE_PROFILE_DOMAIN/);
  });
});
