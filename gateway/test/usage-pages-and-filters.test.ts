// GET /usage as a money history over real HTTP, against the real ledger: executions and an operator's
// grant, refund and adjustment as their own kinds of items; pages that follow nextCursor, each item
// once; the time-range, agent, capability and kind filters; every bad query parameter a 400 naming it.
import { SettlementKind, publishSettlement } from "@agentic/ledger/testing";
import { validateResponse as validate } from "./validate-response";
import { startBackedSystem, type BackedSystem } from "./backed-system";

const KEY = "aak_UsagePagesTestKey0000000000000000000001";
const USER = "user-usage-pages";
// Executions an hour ago, one a second; the operator's movements are recorded now, so they are the newest.
const BASE = Date.now() - 3_600_000;
const CHARGES = 45;

type Item = Record<string, unknown> & { id: string; kind: string };
type Page = { success: true; userId: string; items: Item[]; nextCursor: string | null };

describe("GET /usage pages and filters", () => {
  let sys: BackedSystem;
  const get = async (query: string) => {
    const res = await sys.authed(`/usage${query}`, { key: KEY });
    return { status: res.status, body: (await res.json()) as Page & { code?: string; error?: string } };
  };
  /** Every page of `query` (with `limit`), following nextCursor to null. */
  const allPages = async (query: string, limit: number) => {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await get(`?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`);
      expect({ status, problems: validate("get", "/usage", 200, body) }).toEqual({ status: 200, problems: [] });
      pages.push(body);
      cursor = body.nextCursor;
    } while (cursor);
    return pages;
  };
  const ids = async (query: string) => (await allPages(query, 7)).flatMap((p) => p.items.map((i) => i.id));

  beforeAll(async () => {
    sys = await startBackedSystem({ apiKeys: `${KEY}:${USER}` });
    const move = (kind: string, amountCredits: number, reference: string, reason: string) =>
      sys.ledger.client.recordCreditMovement({ kind, userId: USER, amountCredits, reason, reference, operatorName: "ada" });
    await move("grant", 1_000, "welcome-usage-pages", "Welcome credit");
    const holdIds = Array.from({ length: CHARGES }, (_, i) => `att_usage_pages_${i}`);
    for (const holdId of holdIds)
      await sys.ledger.client.holdCredits({ holdId, userId: USER, amountCredits: 4, ttlMs: 0, routeKey: "geo.time.current.timeapi.mpp" });
    await Promise.all(
      holdIds.map((holdId, i) =>
        publishSettlement(sys.ledger.nc, {
          holdId,
          userId: USER,
          kind: i % 5 === 4 ? SettlementKind.SETTLEMENT_KIND_RELEASE : SettlementKind.SETTLEMENT_KIND_CAPTURE,
          capturedCredits: 2,
          usage: {
            usageId: `use_pages_${i}`,
            createdAt: new Date(BASE + i * 1_000),
            productKey: "geo.time-current",
            capabilityKey: i % 3 === 0 ? "geo.time.convert" : "geo.time.current",
            routeKey: "geo.time.current.timeapi.mpp",
            provider: "timeapi",
            networkKey: "mpp",
            status: i % 5 === 4 ? "failed" : "succeeded",
            durationMs: 20,
            traceId: "0af7651916cd43dd8448eb211c80319c",
            ...(i % 2 ? { agentName: "scout" } : {}),
          },
        }),
      ),
    );
    await Promise.all(holdIds.map((holdId) => sys.ledger.waitForSettlement(holdId)));
    await move("refund", 8, "refund-usage-pages", "Timeout on use_pages_44");
    await move("adjustment", -3, "adjust-usage-pages", "Rounding, invoice 17");
  }, 60_000);
  afterAll(() => sys?.stop());

  it("pages newest first with nextCursor, each item once, until nextCursor is null", async () => {
    const pages = await allPages("", 10);
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 10, 10, 8]);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    const items = pages.flatMap((p) => p.items);
    expect(new Set(items.map((i) => i.id)).size).toBe(CHARGES + 3);
    expect(items.map((i) => i.id)).toEqual((await get("?limit=100")).body.items.map((i) => i.id));
    expect(items.slice(3).map((i) => i.id)).toEqual(Array.from({ length: CHARGES }, (_, i) => `use_pages_${CHARGES - 1 - i}`));
    const times = items.map((i) => Date.parse(i.createdAt as string));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("shows an operator's grant, refund and adjustment as their own kinds: what moved and why, not who", async () => {
    const { body } = await get("?limit=3");
    expect(body.items.map((i) => [i.kind, i.amountCredits, i.reference, i.reason])).toEqual([
      ["adjustment", -3, "adjust-usage-pages", "Rounding, invoice 17"],
      ["refund", 8, "refund-usage-pages", "Timeout on use_pages_44"],
      ["grant", 1_000, "welcome-usage-pages", "Welcome credit"],
    ]);
    for (const item of body.items)
      expect(Object.keys(item).sort()).toEqual(["amountCredits", "createdAt", "creditsCharged", "id", "kind", "reason", "reference"]);
    const [charge] = (await get("?kind=charge&limit=1")).body.items;
    expect(charge).toMatchObject({
      kind: "charge",
      id: "use_pages_44",
      creditsCharged: 0,
      status: "failed",
      capabilityKey: "geo.time.current",
    });
    expect(charge).not.toHaveProperty("amountCredits");
  });

  it("filters by time range, agent, capability and kind, alone and together, across pages", async () => {
    const at = (i: number) => new Date(BASE + i * 1_000).toISOString();
    await expect(ids(`&from=${at(40)}&to=${at(43)}`)).resolves.toEqual(["use_pages_42", "use_pages_41", "use_pages_40"]);
    // An offset is a time like any other: the instant of use_pages_43 written at UTC+02:00.
    const plus2 = new Date(BASE + 43_000 + 7_200_000).toISOString().replace("Z", "+02:00");
    await expect(ids(`&kind=charge&from=${encodeURIComponent(plus2)}`)).resolves.toEqual(["use_pages_44", "use_pages_43"]);
    const scout = await ids("&agentName=scout");
    expect(scout).toEqual(Array.from({ length: 22 }, (_, i) => `use_pages_${43 - 2 * i}`));
    await expect(ids("&capabilityKey=geo.time.convert&agentName=scout&from=" + at(30))).resolves.toEqual(["use_pages_39", "use_pages_33"]);
    await expect(ids("&kind=grant")).resolves.toHaveLength(1);
    await expect(ids("&kind=top_up")).resolves.toEqual([]);
    await expect(ids("&kind=charge")).resolves.toHaveLength(CHARGES);
  });

  it.each([
    ["an unknown parameter", "?capability=email.send", "capability"],
    ["a repeated parameter", "?kind=grant&kind=refund", "kind"],
    ["a limit out of range", "?limit=101", "limit"],
    ["a malformed cursor", "?cursor=not%20a%20cursor", "cursor"],
    ["a cursor the ledger did not give", "?cursor=WzEsMl0", "cursor"],
    ["a day without a time", "?from=2026-11-01", "from"],
    ["a time without an offset", "?to=2026-11-01T00:00:00", "to"],
    ["a range that ends before it starts", "?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "to"],
    ["an empty agent name", "?agentName=", "agentName"],
    ["a capability key in capitals", "?capabilityKey=Email.Send", "capabilityKey"],
    ["an unknown kind", "?kind=bonus", "kind"],
  ])("answers %s with 400 INVALID_INPUT naming it", async (_what, query, name) => {
    const { status, body } = await get(query);
    expect({ status, code: body.code }).toEqual({ status: 400, code: "INVALID_INPUT" });
    expect(body.error).toMatch(new RegExp(`^${name}: `));
    expect(validate("get", "/usage", 400, body)).toEqual([]);
  });
});
