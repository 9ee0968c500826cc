// GET /usage/summary sums what GET /usage lists (per day, capability, route and agent, in one request),
// GET /overview answers the wallet, that summary and the latest charges in one request, and
// GET /usage/export streams every row the same filters select as CSV, across the ledger's pages; bad
// queries are a 400 naming the parameter.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody, execute, newUser, settled, type TestUser } from "./execute-helpers";
import { validateResponse } from "./validate-response";

describe("GET /usage/summary, GET /overview and GET /usage/export", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem();
    user = await newUser(sys, 10_000);
    for (const agent of ["alpha", "alpha", "beta", undefined]) {
      const res = await execute(sys, user, "email", "send", emailBody(), agent ? { "agent-name": agent } : {});
      expect(res.status).toBe(200);
    }
    // More credit movements than one ledger page (100), so the export walks several.
    for (let i = 0; i < 120; i++)
      await sys.ledger.client.recordCreditMovement({
        kind: "refund",
        userId: user.userId,
        amountCredits: 1,
        reason: "test",
        reference: `export-${user.userId}-${i}`,
        operatorName: "test",
      });
    await settled(sys, user.userId);
  });
  afterAll(() => sys?.stop());

  const get = async (path: string) => {
    const res = await sys.authed(path, { key: user.key });
    return { status: res.status, body: (await res.json()) as any };
  };

  it("sums the charges GET /usage lists, per day, capability, route and agent", async () => {
    const { status, body } = await get("/usage/summary");
    expect(status).toBe(200);
    expect(validateResponse("get", "/usage/summary", 200, body)).toEqual([]);
    const charges = (await get("/usage?kind=charge&limit=100")).body.items as Array<{
      creditsCharged: number;
      agentName?: string;
      routeKey: string;
    }>;
    const total = charges.reduce((s, u) => s + u.creditsCharged, 0);
    expect([body.totalCredits, body.count]).toEqual([total, 4]);
    expect(body.byDay).toHaveLength(30);
    expect(body.byDay.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), credits: total, count: 4 });
    expect(body.byCapability).toEqual([{ capabilityKey: "email.send", credits: total, count: 4 }]);
    const perAgent = (name?: string) => charges.filter((u) => u.agentName === name).reduce((s, u) => s + u.creditsCharged, 0);
    expect(body.byAgent).toEqual(
      expect.arrayContaining([
        { agentName: "alpha", credits: perAgent("alpha"), count: 2 },
        { agentName: "beta", credits: perAgent("beta"), count: 1 },
        { credits: perAgent(undefined), count: 1 },
      ]),
    );
    expect(body.byRoute.reduce((s: number, r: { credits: number }) => s + r.credits, 0)).toBe(total);
    const alpha = (await get("/usage/summary?agentName=alpha")).body;
    expect([alpha.totalCredits, alpha.count]).toEqual([perAgent("alpha"), 2]);
  });

  it("refuses a bad range or parameter with a 400 naming it", async () => {
    for (const [query, field] of [
      ["from=2026-01-01T00:00:00Z&to=2025-01-01T00:00:00Z", "to"],
      ["from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", "to"],
      ["from=yesterday", "from"],
      ["limit=5", "limit"],
      ["capabilityKey=Not%20A%20Key", "capabilityKey"],
    ]) {
      const { status, body } = await get(`/usage/summary?${query}`);
      expect([status, body.code]).toEqual([400, "INVALID_INPUT"]);
      expect(body.error).toContain(field);
      expect(body.hint).toEqual(expect.any(String));
    }
    expect((await sys.authed("/usage/summary", { key: "aak_NotAKeyOfAnyone00000000000000000000000000" })).status).toBe(401);
  });

  it("answers the wallet, the summary and the latest charges in one GET /overview, as their own resources answer them", async () => {
    const { status, body } = await get("/overview?latest=3");
    expect(status).toBe(200);
    expect(validateResponse("get", "/overview", 200, body)).toEqual([]);
    // Nothing moves meanwhile (every execution settled): each part equals its own resource's answer.
    expect(body.wallet).toEqual((await get("/wallet")).body);
    expect(body.spend).toEqual((await get("/usage/summary")).body);
    expect(body.latestCharges).toEqual((await get("/usage?kind=charge&limit=3")).body);
    expect(body.latestCharges.items).toHaveLength(3);
    expect(body.userId).toBe(user.userId);
    const ranged = (await get("/overview?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z")).body;
    expect(ranged.spend).toEqual((await get("/usage/summary?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z")).body);
    expect(ranged.latestCharges.items).toHaveLength(4);

    for (const [query, field] of [
      ["latest=0", "latest"],
      ["latest=101", "latest"],
      ["latest=ten", "latest"],
      ["from=2026-01-01T00:00:00Z&to=2025-01-01T00:00:00Z", "to"],
      ["agentName=alpha", "agentName"],
    ]) {
      const bad = await get(`/overview?${query}`);
      expect([bad.status, bad.body.code]).toEqual([400, "INVALID_INPUT"]);
      expect(bad.body.error).toContain(field);
      expect(bad.body.hint).toEqual(expect.any(String));
    }
    expect((await sys.authed("/overview", { key: "aak_NotAKeyOfAnyone00000000000000000000000000" })).status).toBe(401);
  });

  it("exports every row the filters select as CSV, across the ledger's pages", async () => {
    const ids: string[] = [];
    for (let cursor: string | null = null; ;) {
      const page: { items: Array<{ id: string }>; nextCursor: string | null } = (
        await get(`/usage?limit=100${cursor ? `&cursor=${cursor}` : ""}`)
      ).body;
      ids.push(...page.items.map((u) => u.id));
      if (!(cursor = page.nextCursor)) break;
    }
    expect(ids.length).toBeGreaterThan(120);
    const res = await sys.authed("/usage/export", { key: user.key });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/csv; charset=utf-8"]);
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toBe(
      "id,createdAt,kind,capabilityKey,routeKey,provider,agentName,status,errorCode,durationMs,creditsCharged,amountCredits,reason,reference,traceId",
    );
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(ids);

    const beta = (await (await sys.authed("/usage/export?agentName=beta", { key: user.key })).text()).trim().split("\n");
    expect(beta).toHaveLength(2);
    expect(beta[1]).toContain(",beta,");
    const bad = await sys.authed("/usage/export?kind=gift", { key: user.key });
    expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([400, "INVALID_INPUT"]);
  });
});
