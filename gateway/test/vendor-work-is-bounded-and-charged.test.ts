// What we pay, we charge: through the gateway, real services and the provider sandbox, a vendor that
// bills by what it returns is asked for no more than the hold covers (its own caps, in the sandbox's
// call log) and the caller is charged what the vendor reports; a wait that cannot finish inside the
// deadline is refused before anything is sent; and an answer larger than NATS's default 1 MB message
// still settles under an Idempotency-Key: charged once, replayed whole.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, execute, expectBalanceEqualsJournal, journalKinds, newUser, settled, type TestUser } from "./execute-helpers";

describe("vendor work is bounded and charged", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 100);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  const heldAndCharged = async (executionId: string) => {
    await settled(sys, user.userId);
    const res = await sys.authed(`/executions/${executionId}`, { key: user.key });
    const { execution } = (await res.json()) as { execution: { attempts: { heldCredits: number; chargedCredits: number }[] } };
    return execution.attempts.map((a) => [a.heldCredits, a.chargedCredits]);
  };

  it("web.fetch: Jina is sent its timeout and token budget, and the page's tokens are charged within the hold", async () => {
    // 200,000 bytes of markdown = 50,000 tokens: 1 credit covers 16,000, the other 34,000 cost 34,000 x 62.5 / 1M -> 3.
    const res = await execute(sys, user, "web", "fetch", { url: "https://example.com/bytes-200000/long-read" });
    expect([res.status, res.body.creditsCharged]).toEqual([200, 4]);
    const [call] = sys.sandbox.control.calls("jina");
    expect(call?.headers).toMatchObject({ "x-timeout": "14", "x-token-budget": "100000" });
    expect(await heldAndCharged(res.headers.get("execution-id")!)).toEqual([[7, 4]]);
    expect(await balance(sys, user)).toBe(96);
  });

  it("web.fetch: a page above the token budget is refused by Jina and charges nothing", async () => {
    const res = await execute(sys, user, "web", "fetch", { url: "https://example.com/bytes-1000000/huge" });
    expect([res.status, res.body.code]).toEqual([400, "PROVIDER_REJECTED_INPUT"]);
    expect(await journalKinds(sys, user)).toEqual(["grant", "hold", "release"]);
    expect(await balance(sys, user)).toBe(100);
  });

  it("web.scrape: Firecrawl is sent its timeout, the basic proxy and a PDF page cap, and the pages it reports are charged within the hold", async () => {
    const scrape = (url: string) => execute(sys, user, "web", "scrape", { url, routeKey: "web.scrape.firecrawl" });
    // 4 pages: the first is in the 2-credit price, 3 more at 1.0375 credits -> 4; 2 + 4 = 6.
    const short = await scrape("https://example.com/reports/pages-4.pdf");
    expect([short.status, short.body.creditsCharged]).toEqual([200, 6]);
    // 300 pages: Firecrawl parses the first 10, what the hold covers: 2 + 9 x 1.0375 -> 12.
    const long = await scrape("https://example.com/reports/pages-300.pdf");
    expect([long.status, long.body.creditsCharged]).toEqual([200, 12]);
    expect(sys.sandbox.control.calls("firecrawl").map((c) => c.body)).toEqual([
      expect.objectContaining({ timeout: 14_000, proxy: "basic", parsers: [{ type: "pdf", maxPages: 10 }] }),
      expect.objectContaining({ timeout: 14_000, proxy: "basic", parsers: [{ type: "pdf", maxPages: 10 }] }),
    ]);
    expect(await heldAndCharged(long.headers.get("execution-id")!)).toEqual([[12, 12]]);
    expect(await balance(sys, user)).toBe(100 - 6 - 12);
  });

  it("web.scrape: a wallet that covers the price but not the vendor's cap is refused before Firecrawl is asked (402, nothing held)", async () => {
    user = await newUser(sys, 5);
    const res = await execute(sys, user, "web", "scrape", { url: "https://example.com/a.pdf", routeKey: "web.scrape.firecrawl" });
    expect([res.status, res.body.code]).toEqual([402, "CREDITS_REQUIRED"]);
    expect(res.body.error).toContain("can cost up to 12 credits");
    expect(sys.sandbox.control.calls("firecrawl")).toEqual([]);
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
  });

  it("web.scrape: a waitForMs that cannot finish inside the deadline is a 400 naming the field, and nothing reaches Firecrawl", async () => {
    const tooLong = await execute(sys, user, "web", "scrape", {
      url: "https://example.com",
      waitForMs: 30_000,
      routeKey: "web.scrape.firecrawl",
    });
    expect([tooLong.status, tooLong.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(tooLong.body.error).toContain("waitForMs");
    expect(sys.sandbox.control.calls("firecrawl")).toEqual([]);
    expect(await journalKinds(sys, user)).toEqual(["grant"]);

    const inTime = await execute(sys, user, "web", "scrape", {
      url: "https://example.com",
      waitForMs: 7_000,
      routeKey: "web.scrape.firecrawl",
    });
    expect(inTime.status).toBe(200);
    expect(sys.sandbox.control.calls("firecrawl").map((c) => c.body)).toEqual([
      expect.objectContaining({ waitFor: 7_000, timeout: 14_000 }),
    ]);
  });

  it("a keyed execute whose answer is 1.5 MB succeeds, is charged once, and is replayed whole", async () => {
    const headers = { "idempotency-key": `large-answer-${process.pid}` };
    const body = { url: "https://example.com/bytes-1500000/archive", routeKey: "web.scrape.firecrawl" };
    const first = await execute(sys, user, "web", "scrape", body, headers);
    expect([first.status, first.body.creditsCharged]).toEqual([200, 2]);
    expect(Buffer.byteLength(first.body.data.markdown)).toBeGreaterThan(1_500_000);
    const again = await execute(sys, user, "web", "scrape", body, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toEqual(first.body.data);
    expect(sys.sandbox.control.calls("firecrawl")).toHaveLength(1);
    await settled(sys, user.userId);
    expect(await journalKinds(sys, user)).toEqual(["grant", "hold", "capture"]);
    expect(await balance(sys, user)).toBe(98);
  });

  it("post.letter.send: HTML that tries to leave its one-page frame is sanitized, printed on one page, and charged the one-page price", async () => {
    user = await newUser(sys, 2_000);
    const address = { addressLine1: "185 Berry St", city: "San Francisco", state: "CA", postalCode: "94107", country: "US" };
    const res = await execute(sys, user, "post", "letter-send", {
      to: { name: "Ada Moreau", ...address },
      from: { name: "Agentic", ...address },
      html:
        "<style>.agentic-page{height:auto!important}</style><p>One</p></div>" +
        '<div style="break-before: page !important">More</div>'.repeat(9),
    });
    expect([res.status, res.body.creditsCharged, res.body.data.pages]).toEqual([200, 1_500, 1]);
    const file = (sys.sandbox.control.calls("lob")[0]?.body as { file: string }).file;
    // The frame's own stylesheet is all that is left of the caller's styles.
    expect(file).toContain(`<div class="agentic-page"><p>One</p>${"<div>More</div>".repeat(9)}</div></body></html>`);
    expect(file).not.toContain("height:auto");
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(500);
  });
});
