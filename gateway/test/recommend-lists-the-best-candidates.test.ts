// Recommend's candidate limit over real HTTP, on a generated catalog with a capability of 200 routes:
// `?limit=5` answers the best five in full and counts the rest (a few kilobytes instead of hundreds),
// the same order as the whole answer; the stored answer keeps every candidate (those past the limit
// compact: ranked, priced and blocked, not explained); without a limit the
// answer is as before; a limit out of 1-200 is a 400 naming `limit`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateTestCatalog } from "@agentic/catalog/testing";
import { AgenticApiClient } from "@agentic-api/sdk";
import { validateResponse as validate } from "./validate-response";
import { startBackedSystem, TEST_KEY, type BackedSystem } from "./backed-system";

const RECOMMEND = "/domains/{domainKey}/capabilities/{capabilityId}/recommend";
const WIDE_ROUTES = 200;

describe("recommend with a candidate limit", () => {
  let dir: string;
  let sys: BackedSystem;
  const recommend = (query: string, body: unknown = { agentName: "wide_agent" }) =>
    sys.authed(`/domains/wide/capabilities/fanout-lookup/recommend${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "recommend-limit-"));
    generateTestCatalog(1, dir, { wide: WIDE_ROUTES });
    sys = await startBackedSystem({ catalogDir: dir });
  });
  afterAll(async () => {
    await sys?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers the best five in full and counts the other 195, compactly and in the whole answer's order", async () => {
    const whole = await recommend("");
    const wholeText = await whole.text();
    const all = JSON.parse(wholeText);
    expect(whole.status).toBe(200);
    expect(all.candidates).toHaveLength(WIDE_ROUTES);
    expect(all).not.toHaveProperty("candidatesOmitted");

    const limited = await recommend("?limit=5");
    const limitedText = await limited.text();
    const body = JSON.parse(limitedText);
    expect(limited.status).toBe(200);
    expect(validate("post", RECOMMEND, 200, body)).toEqual([]);
    expect(body.candidates).toHaveLength(5);
    expect(body.candidatesOmitted).toBe(WIDE_ROUTES - 5);
    expect(body.candidates.map((c: any) => c.routeKey)).toEqual(all.candidates.slice(0, 5).map((c: any) => c.routeKey));
    expect(body.recommendedRouteKey).toBe(all.recommendedRouteKey);
    // Compact: a few kilobytes, against some 200 KB for the whole answer.
    expect(Buffer.byteLength(limitedText)).toBeLessThan(8 * 1024);
    expect(Buffer.byteLength(wholeText)).toBeGreaterThan(20 * Buffer.byteLength(limitedText));
  });

  it("stores every candidate under the recommendation id, so an execute naming it runs the whole ranking", async () => {
    const body = (await (await recommend("?limit=1")).json()) as any;
    const stored = await sys.router.client.getRecommendation({ recommendationId: body.recommendationId, userId: "user-gateway-test" });
    expect(stored.recommendation?.candidates).toHaveLength(WIDE_ROUTES);
    expect(stored.recommendation?.candidates[0]?.routeKey).toBe(body.candidates[0].routeKey);
    // The ranking an execute runs is the whole one; what was not read is kept compact, not explained.
    const whole = (await (await recommend("")).json()) as any;
    expect(stored.recommendation!.candidates.map((c) => [c.routeKey, c.priceCredits, c.blockingRequirements])).toEqual(
      whole.candidates.map((c: any) => [c.routeKey, c.priceCredits, c.blockingRequirements]),
    );
    expect(stored.recommendation!.candidates[0]!.reasons.length).toBeGreaterThan(0);
    for (const past of stored.recommendation!.candidates.slice(1)) expect([past.reasons, past.nextActions]).toEqual([[], []]);
  });

  it("says how many were left out when the limit covers every candidate (none)", async () => {
    const body = (await (await recommend(`?limit=${WIDE_ROUTES}`)).json()) as any;
    expect([body.candidates.length, body.candidatesOmitted]).toEqual([WIDE_ROUTES, 0]);
  });

  it("refuses a limit outside 1-200, or given twice, with a 400 naming limit", async () => {
    for (const query of ["?limit=0", "?limit=201", "?limit=five", "?limit=-1", "?limit=2.5", "?limit=1&limit=2"]) {
      const res = await recommend(query);
      const body = (await res.json()) as any;
      expect([query, res.status, body.code]).toEqual([query, 400, "INVALID_INPUT"]);
      expect(body.error).toMatch(/^limit: /);
      expect(body.hint).toMatch(/limit/);
    }
  });

  it("passes limit through the SDK", async () => {
    const client = new AgenticApiClient({ baseUrl: sys.gw.baseUrl, apiKey: TEST_KEY });
    const rec = await client.capabilities.recommend({ domain: "wide", capability: "fanout-lookup", limit: 3 });
    expect([rec.candidates.length, rec.candidatesOmitted]).toEqual([3, WIDE_ROUTES - 3]);
  });
});
