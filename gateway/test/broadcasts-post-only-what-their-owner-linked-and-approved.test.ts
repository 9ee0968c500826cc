// Scenario: broadcast.message.send creates a real public post, so nobody posts as the platform or
// without a person's approval. Over real HTTP with the provider sandbox's Ayrshare:
// - on the shipped catalog it is gated: execute is refused (why, and how an operator enables it),
//   nothing is charged and Ayrshare sees no post;
// - on a catalog copy where an operator turned it live, a post goes only to the accounts the caller
//   linked to their own profile (broadcast.profile.link; Ayrshare's Profile-Key), and only with an
//   approval broadcast.message.quote issued to them for these channels and text: an id computed
//   offline, another user's, a used and an expired one are refused and Ayrshare logs no post; a caller
//   without a profile gets a 400 whose nextActions say how to link one; a send whose hold the wallet
//   refuses posts nothing and keeps the approval for a send that can pay.
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CATALOG_DIR } from "@agentic/catalog/testing";
import { waitFor } from "@agentic/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, execute, expectBalanceEqualsJournal, newUser, settled, type TestUser } from "./execute-helpers";

const POST = { channels: ["linkedin"], text: "We just shipped v2 of our API." };

/** Ayrshare's post calls, as the sandbox logged them. */
const posts = (sys: BackedSystem) => sys.sandbox.control.calls("ayrshare").filter((c) => c.path === "/api/post");

/** The broadcastQuoteId anyone could compute before approvals were records: a hash of channels and text. */
function offlineQuoteId(channels: string[], text: string): string {
  return `bq_${createHash("sha256")
    .update(JSON.stringify([[...channels].sort(), text]))
    .digest("base64url")
    .slice(0, 22)}`;
}

async function quote(sys: BackedSystem, user: TestUser, post = POST): Promise<string> {
  const res = await execute(sys, user, "broadcast", "message-quote", post);
  expect(res.status).toBe(200);
  return res.body.data.broadcastQuoteId as string;
}

/** A profile of `user` with `platforms` linked on its link page, as a person would. */
async function linkedProfile(sys: BackedSystem, user: TestUser, platforms: string): Promise<string> {
  const res = await execute(sys, user, "broadcast", "profile-link", {});
  expect([res.status, res.body.data.created]).toEqual([200, true]);
  const page = await fetch(`${res.body.data.linkUrl as string}&platforms=${platforms}`);
  expect(page.status).toBe(200);
  return res.body.data.profileId as string;
}

/** A copy of the shipped catalog where an operator turned broadcast.message.send live. */
function operatorCatalog(): string {
  const dir = mkdtempSync(join(tmpdir(), "catalog-broadcast-live-"));
  cpSync(DEFAULT_CATALOG_DIR, dir, { recursive: true });
  const file = join(dir, "broadcast.yaml");
  const shipped = readFileSync(file, "utf8");
  const live = shipped
    .replace("    status: recommend_only\n", "    status: live\n")
    .replace("routeMode: byo\n        status: pending\n        executionGated: true\n", "routeMode: byo\n        status: live\n");
  expect(live).not.toContain("routeMode: byo\n        status: pending");
  writeFileSync(file, live);
  return dir;
}

describe("broadcasts on the shipped catalog", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());

  it("keeps broadcast.message.send gated: refused with why and how to enable it, nothing charged, no post", async () => {
    const user = await newUser(sys, 5_000);
    const profileId = await linkedProfile(sys, user, "linkedin");
    const broadcastQuoteId = await quote(sys, user);
    await settled(sys, user.userId);
    const before = await balance(sys, user);
    const sent = await execute(sys, user, "broadcast", "message-send", { ...POST, broadcastQuoteId, approved: true, profileId });
    expect([sent.status, sent.body.code]).toEqual([409, "CAPABILITY_GATED"]);
    expect(sent.body.error).toMatch(/real public post.*operator enables it/s);
    expect(await balance(sys, user)).toBe(before);
    expect(posts(sys)).toEqual([]);

    const rec = await sys.authed("/domains/broadcast/capabilities/message-send/recommend", {
      key: user.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(JSON.stringify(await rec.json())).toMatch(/CAPABILITY_GATED.*real public post/);
    await expectBalanceEqualsJournal(sys, user);
  });

  it("refuses a quote on a channel the vendor does not serve with a 400 naming it, issuing nothing", async () => {
    const user = await newUser(sys, 100);
    const res = await execute(sys, user, "broadcast", "message-quote", { channels: ["telegram"], text: "Hi" });
    expect([res.status, res.body.code, res.body.error]).toEqual([
      400,
      "INVALID_INPUT",
      expect.stringMatching(/^channels: unsupported channels: telegram/),
    ]);
    expect(await balance(sys, user)).toBe(100);
  });
});

describe("broadcasts where an operator turned them live", () => {
  let sys: BackedSystem;
  let dir: string;
  let alice: TestUser;
  let aliceProfile: string;

  beforeAll(async () => {
    dir = operatorCatalog();
    sys = await startBackedSystem({ catalogDir: dir });
    alice = await newUser(sys, 10_000);
    aliceProfile = await linkedProfile(sys, alice, "linkedin,twitter");
  });
  afterAll(async () => {
    await sys?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => sys.sandbox.control.clearCalls());
  afterEach(() => expectBalanceEqualsJournal(sys, alice));

  it("posts an approved quote to the caller's own linked accounts only, with their profile key, once", async () => {
    const broadcastQuoteId = await quote(sys, alice);
    const body = { ...POST, broadcastQuoteId, approved: true, profileId: aliceProfile };
    const sent = await execute(sys, alice, "broadcast", "message-send", body);
    expect([sent.status, sent.body.creditsCharged]).toEqual([200, 125]);
    expect(posts(sys).map((c) => [c.status, c.headers["profile-key"]])).toEqual([[200, aliceProfile]]);

    const again = await execute(sys, alice, "broadcast", "message-send", body);
    expect([again.status, again.body.code]).toEqual([409, "APPROVAL_ALREADY_USED"]);
    expect(posts(sys)).toHaveLength(1);
  });

  it("runs one approval once when two sends race with it", async () => {
    const broadcastQuoteId = await quote(sys, alice);
    const body = { ...POST, broadcastQuoteId, approved: true, profileId: aliceProfile };
    const both = await Promise.all([1, 2].map(() => execute(sys, alice, "broadcast", "message-send", body)));
    expect(both.map((r) => r.body.code ?? r.status).sort()).toEqual([200, "APPROVAL_ALREADY_USED"].sort());
    expect(posts(sys)).toHaveLength(1);
  });

  it("refuses an id computed offline, another text than the one approved, and another user's approval: no post, nothing charged", async () => {
    await settled(sys, alice.userId);
    const before = await balance(sys, alice);
    const offline = await execute(sys, alice, "broadcast", "message-send", {
      ...POST,
      broadcastQuoteId: offlineQuoteId(POST.channels, POST.text),
      approved: true,
      profileId: aliceProfile,
    });
    expect([offline.status, offline.body.code]).toEqual([404, "APPROVAL_NOT_FOUND"]);
    expect(offline.body.nextActions).toEqual([expect.stringContaining("broadcast.message.quote")]);

    const broadcastQuoteId = await quote(sys, alice);
    const edited = await execute(sys, alice, "broadcast", "message-send", {
      ...POST,
      text: "Something nobody approved",
      broadcastQuoteId,
      approved: true,
      profileId: aliceProfile,
    });
    expect([edited.status, edited.body.code]).toEqual([409, "APPROVAL_MISMATCH"]);

    const mallory = await newUser(sys, 5_000);
    const malloryProfile = await linkedProfile(sys, mallory, "linkedin");
    for (const profileId of [malloryProfile, aliceProfile]) {
      const stolen = await execute(sys, mallory, "broadcast", "message-send", { ...POST, broadcastQuoteId, approved: true, profileId });
      expect([stolen.status, stolen.body.code]).toEqual([404, "APPROVAL_NOT_FOUND"]);
    }
    // Mallory's own approval does not reach Alice's accounts either.
    const malloryQuote = await quote(sys, mallory);
    const hers = await execute(sys, mallory, "broadcast", "message-send", {
      ...POST,
      broadcastQuoteId: malloryQuote,
      approved: true,
      profileId: aliceProfile,
    });
    expect([hers.status, hers.body.code]).toEqual([404, "RESOURCE_NOT_FOUND"]);

    expect(posts(sys)).toEqual([]);
    await settled(sys, alice.userId);
    // Only the quote (1 credit) was charged.
    expect(await balance(sys, alice)).toBe(before - 1);
    await expectBalanceEqualsJournal(sys, mallory);
  });

  it("gives the approval back when the hold is refused (nothing posted): once the wallet covers the post, the same approval posts", async () => {
    // 2,500 credits link the profile and 1 the quote: 99 left, below the post's 125.
    const carol = await newUser(sys, 2_600);
    const profileId = await linkedProfile(sys, carol, "linkedin");
    const broadcastQuoteId = await quote(sys, carol);
    await settled(sys, carol.userId);
    const body = { ...POST, broadcastQuoteId, approved: true, profileId };
    const refused = await execute(sys, carol, "broadcast", "message-send", body);
    expect([refused.status, refused.body.code]).toEqual([402, "CREDITS_REQUIRED"]);
    expect(posts(sys)).toEqual([]);

    await sys.ledger.client.grantCredits({ grantId: `top-up-${carol.userId}`, userId: carol.userId, amountCredits: 125, reason: "test" });
    const sent = await execute(sys, carol, "broadcast", "message-send", body);
    expect([sent.status, sent.body.creditsCharged]).toEqual([200, 125]);
    expect(posts(sys).map((c) => c.headers["profile-key"])).toEqual([profileId]);
    // Used by the post that ran: it runs once.
    const again = await execute(sys, carol, "broadcast", "message-send", body);
    expect([again.status, again.body.code]).toEqual([409, "APPROVAL_ALREADY_USED"]);
    await settled(sys, carol.userId);
    expect(await balance(sys, carol)).toBe(99);
    await expectBalanceEqualsJournal(sys, carol);
  });

  it("answers a caller without a linked profile with a 400 whose nextActions say how to link one", async () => {
    const bob = await newUser(sys, 5_000);
    const broadcastQuoteId = await quote(sys, bob);
    const res = await execute(sys, bob, "broadcast", "message-send", { ...POST, broadcastQuoteId, approved: true });
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.nextActions.join(" ")).toMatch(/profile-link\/execute.*linkUrl.*profileId/s);
    expect(posts(sys)).toEqual([]);
    // The approval was not spent on the refusal: once linked, it posts.
    const profileId = await linkedProfile(sys, bob, "linkedin");
    const sent = await execute(sys, bob, "broadcast", "message-send", { ...POST, broadcastQuoteId, approved: true, profileId });
    expect(sent.status).toBe(200);
    expect(posts(sys).map((c) => c.headers["profile-key"])).toEqual([profileId]);
    await expectBalanceEqualsJournal(sys, bob);
  });
});

describe("an expired approval", () => {
  let sys: BackedSystem;
  let dir: string;
  beforeAll(async () => {
    dir = operatorCatalog();
    sys = await startBackedSystem({ catalogDir: dir, executorEnv: { BROADCAST_QUOTE_TTL_MS: "1000" } });
  });
  afterAll(async () => {
    await sys?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is refused, and nothing is posted", async () => {
    const user = await newUser(sys, 5_000);
    const profileId = await linkedProfile(sys, user, "linkedin");
    const res = await execute(sys, user, "broadcast", "message-quote", POST);
    const expiresAt = Date.parse(res.body.data.expiresAt as string);
    await waitFor(() => Date.now() > expiresAt, { timeoutMs: 5_000, what: "the approval to expire" });
    const sent = await execute(sys, user, "broadcast", "message-send", {
      ...POST,
      broadcastQuoteId: res.body.data.broadcastQuoteId,
      approved: true,
      profileId,
    });
    expect([sent.status, sent.body.code]).toEqual([409, "APPROVAL_EXPIRED"]);
    expect(posts(sys)).toEqual([]);
    await expectBalanceEqualsJournal(sys, user);
  });
});
