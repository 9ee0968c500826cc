// The catalog's search box (GET /capabilities?q=, GET /routes?q=) is the router's index, the one POST
// /route reads: over real HTTP on the shipped catalog, `q=email` finds email.send and
// enrichment.email.find in the router's order, a planned capability is found by its words, the routes
// follow their capabilities' ranking, and without the router `q` is a 503 while the plain lists still answer.
import { validateResponse as validate } from "./validate-response";
import { startBackedSystem, type BackedSystem } from "./backed-system";

describe("the search box and intent routing share one index", () => {
  let sys: BackedSystem;
  const getJson = async (path: string) => {
    const res = await fetch(sys.gw.baseUrl + path);
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  };

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys.stop());

  it("GET /capabilities?q=email finds email.send and enrichment.email.find, in the order of the router's search", async () => {
    const { status, body, headers } = await getJson("/capabilities?q=email&limit=200");
    expect(status).toBe(200);
    expect(validate("get", "/capabilities", 200, body)).toEqual([]);
    const keys: string[] = body.map((c: any) => c.capabilityKey);
    expect(keys).toEqual(expect.arrayContaining(["email.send", "enrichment.email.find"]));
    expect(keys).not.toContain("geo.time.current");
    expect(Number(headers.get("x-total-count"))).toBe(keys.length);
    const found = await sys.router.client.findCapabilities({ words: "email" });
    expect(keys).toEqual(found.capabilityKeys);
  });

  it("finds a planned capability by its words, and lists the routes of what it finds, best capability first", async () => {
    const planned = await getJson(`/capabilities?q=${encodeURIComponent("deep research")}&status=planned`);
    expect(planned.status).toBe(200);
    expect(planned.body.map((c: any) => c.capabilityKey)).toContain("search.research");

    const routes = await getJson("/routes?q=email&status=live&limit=200");
    expect(routes.status).toBe(200);
    expect(validate("get", "/routes", 200, routes.body)).toEqual([]);
    const capabilities = (await getJson("/capabilities?q=email&limit=200")).body.map((c: any) => c.capabilityKey);
    const order: number[] = routes.body.map((r: any) => capabilities.indexOf(r.capabilityKey));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(routes.body.every((r: any) => r.status === "live")).toBe(true);
  });

  // Last: it stops the router.
  it("answers q with 503 while the router is away, and the lists without q as before", async () => {
    await sys.router.stop();
    const searched = await getJson("/capabilities?q=translate");
    expect(searched.status).toBe(503);
    expect(searched.body).toMatchObject({ error: expect.stringContaining("router"), hint: expect.any(String) });
    const plain = await getJson("/capabilities?status=live");
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(0);
  });
});
