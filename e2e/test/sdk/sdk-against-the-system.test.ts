// The SDK against the real system (every service as `npm start` runs it, providers played by the
// sandbox), over HTTP: discovery, recommend, an execute charged once although its first answer was
// lost on the way, each typed error from a real answer, usage across pages, the raw escape hatch,
// and the agent instructions listing exactly the live capabilities.
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import {
  AgenticApiClient,
  AgentRouterClient,
  AuthenticationError,
  InsufficientCreditsError,
  InvalidRequestError,
  NetworkError,
  RateLimitError,
  ServerError,
  TimeoutError,
  type CapabilityCatalogEntry,
} from "@agentic-api/sdk";
import { startDropFirstAnswerProxy } from "./drop-first-answer-proxy";
import { startSystem, type RunningSystem } from "../support/system";
import { fund, newApiKey, until } from "../support/system-helpers";

const RICH = { key: newApiKey(), user: "sdk-rich" };
const POOR = { key: newApiKey(), user: "sdk-poor" };
const UNAUTHENTICATED_PER_MIN = 6;
/** A live capability of one live route (timeapi over MPP, 2 credits a call). */
const TIME = { domain: "geo", capability: "time-current" } as const;
const LISBON = { timezone: "Europe/Lisbon" };

let sys: RunningSystem;
let client: AgenticApiClient;

beforeAll(async () => {
  sys = await startSystem({
    AGENTIC_API_KEYS: `${RICH.key}:${RICH.user},${POOR.key}:${POOR.user}`,
    RATE_LIMIT_UNAUTHENTICATED_PER_MIN: String(UNAUTHENTICATED_PER_MIN),
  });
  await fund(sys.baseUrl, RICH.user, 1_000);
  await fund(sys.baseUrl, POOR.user, 1);
  client = new AgenticApiClient({ apiKey: RICH.key, baseUrl: sys.baseUrl, retry: { baseDelayMs: 10 } });
}, 90_000);
afterAll(() => sys?.stop());

const balance = async () => (await client.wallet.get()).balanceCredits;

/** Every capability of every domain, read through the SDK. */
async function allCapabilities(c: AgenticApiClient): Promise<CapabilityCatalogEntry[]> {
  const domains = await c.catalog.domains.list();
  return (await Promise.all(domains.map((d) => c.catalog.capabilities.list(d.domainKey)))).flat();
}

async function caught(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail");
}

describe("discovery", () => {
  it("reads domains, capabilities, a contract and routes without a key", async () => {
    const anonymous = new AgentRouterClient({ baseUrl: sys.baseUrl });
    const domains = await anonymous.catalog.domains.list();
    expect(domains.find((d) => d.domainKey === "geo")).toMatchObject({ status: "live" });

    const capabilities = await anonymous.catalog.capabilities.list("geo");
    expect(capabilities.find((c) => c.capabilityId === TIME.capability)).toMatchObject({
      status: "live",
      capabilityKey: "geo.time.current",
    });

    const contract = await anonymous.catalog.capabilities.contract(TIME.domain, TIME.capability);
    expect(contract.execute?.fields.map((f) => f.name)).toEqual(expect.arrayContaining(["timezone", "location"]));
    expect(contract.execute?.oneOfRequired).toEqual([["location", "timezone"]]);

    const routes = await anonymous.catalog.capabilities.routes(TIME.domain, TIME.capability);
    expect(routes.find((r) => r.status === "live")).toMatchObject({ providerKey: "timeapi", startingCostCredits: 2, billing: "per_call" });
  });

  it("recommends the route, its price and what blocks it, for free", async () => {
    const before = await balance();
    const rec = await client.capabilities.recommend({ ...TIME, input: { optimizationPreferences: ["cost"] } });
    expect(rec).toMatchObject({ recommendedProvider: "timeapi", canExecuteNow: true, blockingRequirements: [] });
    expect(rec.candidates.find((c) => c.routeKey === rec.recommendedRouteKey)?.priceCredits).toBe(2);
    expect(await balance()).toBe(before);
  });
});

describe("execute", () => {
  it("is charged once when its first answer is lost: the retry carries the same key and gets the stored result", async () => {
    const proxy = await startDropFirstAnswerProxy(sys.origin, (method, path) => method === "POST" && path.endsWith("/execute"));
    try {
      const viaProxy = new AgenticApiClient({
        apiKey: RICH.key,
        baseUrl: proxy.origin + new URL(sys.baseUrl).pathname,
        retry: { baseDelayMs: 10 },
      });
      const before = await balance();

      const result = await viaProxy.capabilities.execute({ ...TIME, input: LISBON });

      const executes = proxy.seen.filter((r) => r.path.endsWith("/execute"));
      expect(executes.map((r) => [r.dropped, r.upstreamStatus])).toEqual([
        [true, 200],
        [false, 200],
      ]);
      expect(executes.map((r) => r.headers["idempotency-key"])).toEqual([
        result.lastResponse.idempotencyKey,
        result.lastResponse.idempotencyKey,
      ]);
      expect(result).toMatchObject({ success: true, provider: "timeapi", creditsCharged: 2 });
      expect(result.data).toMatchObject({ timezone: "Europe/Lisbon" });
      expect(result.lastResponse).toMatchObject({ attempts: 2, replayed: true });
      expect(JSON.parse(JSON.stringify(result))).not.toHaveProperty("lastResponse");

      expect(await balance()).toBe(before - 2);
      const execution = await client.executions.get(result.lastResponse.executionId!);
      expect(execution.execution).toMatchObject({ idempotencyKey: result.lastResponse.idempotencyKey, creditsCharged: 2 });
      expect(execution.execution.attempts).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it("replays a caller's own idempotency key without a second charge", async () => {
    const before = await balance();
    const idempotencyKey = `sdk-test-${Date.now()}`;
    const first = await client.capabilities.execute({ ...TIME, input: LISBON, idempotencyKey, provider: "timeapi" });
    const second = await client.capabilities.execute({ ...TIME, input: LISBON, idempotencyKey, provider: "timeapi" });
    expect(first.lastResponse).toMatchObject({ replayed: false, attempts: 1, idempotencyKey });
    expect(second.lastResponse).toMatchObject({ replayed: true, executionId: first.lastResponse.executionId });
    expect(await balance()).toBe(before - 2);
  });
});

describe("typed errors from real answers", () => {
  it("InvalidRequestError: a body that breaks the contract (400), an unknown capability (404), a gated one and a reused key (409)", async () => {
    const before = await balance();
    const invalid = await caught(
      client.capabilities.execute({
        ...TIME,
        // @ts-expect-error the input is typed by the contract: one of location and timezone is required
        input: {},
      }),
    );
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({
      status: 400,
      code: "INVALID_INPUT",
      hint: expect.any(String),
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });

    const extra = await caught(
      client.capabilities.execute({
        ...TIME,
        // @ts-expect-error the input is typed by the contract: it has no field zone
        input: { timezone: "Europe/Lisbon", zone: "WET" },
      }),
    );
    expect(extra).toMatchObject({ status: 400, code: "INVALID_INPUT" });
    // A capability the SDK was generated without takes any object (and the API says what is wrong).
    const future = await caught(client.capabilities.execute({ domain: "geo", capability: "time-travel", input: { year: 1885 } }));
    expect(future).toMatchObject({ status: 404, code: "CAPABILITY_NOT_FOUND" });

    const unknown = await caught(client.catalog.capabilities.contract("geo", "time-travel"));
    expect(unknown).toBeInstanceOf(InvalidRequestError);
    expect(unknown).toMatchObject({ status: 404, code: "CAPABILITY_NOT_FOUND" });

    const gated = await caught(client.capabilities.execute({ domain: "text", capability: "analyze", input: { text: "hello" } }));
    expect(gated).toBeInstanceOf(InvalidRequestError);
    expect(gated).toMatchObject({ status: 409, code: "CAPABILITY_GATED" });

    const idempotencyKey = `sdk-conflict-${Date.now()}`;
    await client.capabilities.execute({ ...TIME, input: LISBON, idempotencyKey });
    const conflict = await caught(client.capabilities.execute({ ...TIME, input: { timezone: "Asia/Tokyo" }, idempotencyKey }));
    expect(conflict).toBeInstanceOf(InvalidRequestError);
    expect(conflict).toMatchObject({ status: 409, code: "IDEMPOTENCY_CONFLICT" });
    expect(await balance()).toBe(before - 2);
  });

  it("InsufficientCreditsError: a 402 says how many credits are missing, and nothing is charged", async () => {
    const poor = new AgenticApiClient({ apiKey: POOR.key, baseUrl: sys.baseUrl });
    const err = await caught(poor.capabilities.execute({ ...TIME, input: LISBON }));
    expect(err).toBeInstanceOf(InsufficientCreditsError);
    expect(err).toMatchObject({ status: 402, code: "CREDITS_REQUIRED", requiredCredits: 2, balanceCredits: 1, missingCredits: 1 });
    expect((await poor.wallet.get()).balanceCredits).toBe(1);
  });

  it("ServerError: a provider failure (502) is not retried (a retry would only replay it), and nothing is charged", async () => {
    const sandbox = `http://127.0.0.1:${sys.ports.sandbox!.port}/_control`;
    // Paid calls only: an MPP call is a 402 challenge, then the paid request.
    const callsToTimeapi = async () =>
      ((await (await fetch(`${sandbox}/calls?provider=timeapi`)).json()) as { calls: Array<{ paymentPresented: boolean }> }).calls.filter(
        (c) => c.paymentPresented,
      ).length;
    const fault = await fetch(`${sandbox}/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ provider: "timeapi", mode: "5xx", count: 1 }),
    });
    expect(fault.status).toBeLessThan(300);
    const before = await balance();
    const callsBefore = await callsToTimeapi();

    const err = await caught(client.capabilities.execute({ ...TIME, input: LISBON, provider: "timeapi" }));
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ status: 502, code: "PROVIDER_ERROR" });
    expect(await callsToTimeapi()).toBe(callsBefore + 1);
    expect(await balance()).toBe(before);
  });

  it("NetworkError: no answer is tried again up to maxAttempts; TimeoutError: the call's deadline", async () => {
    let connections = 0;
    const cutter: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    const silent: Server = createServer(() => undefined);
    await Promise.all([cutter, silent].map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r))));
    const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/agentic-api`;
    try {
      const cut = new AgenticApiClient({ apiKey: RICH.key, baseUrl: url(cutter), retry: { maxAttempts: 3, baseDelayMs: 5 } });
      const network = await caught(cut.wallet.get());
      expect(network).toBeInstanceOf(NetworkError);
      expect(network).toMatchObject({ code: "NETWORK_ERROR", status: undefined });
      expect(connections).toBe(3);

      const hung = new AgenticApiClient({ apiKey: RICH.key, baseUrl: url(silent), timeoutMs: 300 });
      const timeout = await caught(hung.wallet.get());
      expect(timeout).toBeInstanceOf(TimeoutError);
      expect(timeout).toMatchObject({ code: "CLIENT_TIMEOUT" });
    } finally {
      for (const s of [cutter, silent]) s.close();
    }
  });
});

describe("usage and the raw escape hatch", () => {
  it("usage.list follows the cursors: the same items, in order, as one big page", async () => {
    const agentName = `usage-pages-${Date.now()}`;
    for (let i = 0; i < 3; i++) await client.capabilities.execute({ ...TIME, input: LISBON, agentName });
    // Usage items are written when the ledger settles each execution, after execute answered.
    await until(async () => (await client.usage.list({ agentName, limit: 10 })).length === 3);

    const onePage = await client.raw.request<{ items: Array<{ id: string }> }>({
      method: "GET",
      path: "/usage",
      query: { limit: 3, agentName },
    });
    const paged = await client.usage.list({ limit: 3, pageSize: 1, agentName });
    expect(paged.map((i) => i.id)).toEqual(onePage.data.items.map((i) => i.id));
    expect(paged.map((i) => i.agentName)).toEqual([agentName, agentName, agentName]);
  });

  it("raw answers any request as it came, error statuses included", async () => {
    const answer = await client.raw.request<{ code: string }>({ method: "GET", path: "/domains/nowhere", auth: false });
    expect(answer.status).toBe(404);
    expect(answer.data.code).toBe("DOMAIN_NOT_FOUND");
  });
});

describe("agent instructions", () => {
  const section = (text: string, heading: RegExp) => {
    const start = text.search(heading);
    expect(start).toBeGreaterThanOrEqual(0);
    const rest = text.slice(start);
    const end = rest.slice(1).search(/\n## /);
    return end < 0 ? rest : rest.slice(0, end + 1);
  };

  it("SKILL.md lists exactly the live capabilities, the gated ones apart, with the order, the rules and curl lines", async () => {
    const capabilities = await allCapabilities(client);
    const live = capabilities.filter((c) => c.status === "live").map((c) => c.capabilityKey);
    const gated = capabilities.filter((c) => c.status === "recommend_only").map((c) => c.capabilityKey);
    expect(live.length).toBeGreaterThan(0);

    const res = await fetch(`${sys.baseUrl}/SKILL.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/markdown/);
    const text = await res.text();
    const listed = [...section(text, /^## Live capabilities/m).matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...live].sort());
    const gatedListed = [...section(text, /^## Gated capabilities/m).matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]);
    expect(gatedListed.sort()).toEqual([...gated].sort());
    expect(text).toMatch(/^---\nname: agentic-api\n/);
    expect(text).toMatch(/1000 credits = 1 USD/);
    expect(section(text, /^## Discovery order/m)).toMatch(/Catalog[\s\S]*Contract[\s\S]*Recommend[\s\S]*Execute[\s\S]*wallet[\s\S]*usage/);
    expect(section(text, /^## Hard rules/m)).toMatch(/blockingRequirements[\s\S]*same key/);
    expect(text).toContain('curl "$AGENTIC_API_BASE_URL/domains"');
    expect(text).toMatch(
      /\| `geo\.time\.current` \| `POST \/domains\/geo\/capabilities\/time-current\/execute` \| from 2 credits \(\$0\.002\) per call/,
    );

    // Cached per catalog version: revalidation answers 304.
    const again = await fetch(`${sys.baseUrl}/SKILL.md`, { headers: { "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("llms.txt links exactly the live capabilities' contracts, and openapi.json links SKILL.md", async () => {
    const live = (await allCapabilities(client)).filter((c) => c.status === "live");
    const res = await fetch(`${sys.baseUrl}/llms.txt`);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^# Agentic API\n\n> /);
    const links = [...section(text, /^## Live capabilities/m).matchAll(/^- \[([^\]]+)\]\(([^)]+)\)/gm)].map((m) => [m[1], m[2]]);
    expect(links.sort()).toEqual(live.map((c) => [c.capabilityKey, c.contractEndpoint]).sort());

    const openapi = (await (await fetch(`${sys.baseUrl}/openapi.json`)).json()) as { externalDocs?: { url: string } };
    expect(openapi.externalDocs?.url).toBe(`${new URL(sys.baseUrl).pathname}/SKILL.md`);
  });
});

describe("rate limit", () => {
  // Last: it spends this address's budget of requests without a valid key.
  it("RateLimitError: requests without a valid key over the address's budget get 429 with Retry-After, never retried", async () => {
    const stranger = new AgenticApiClient({ apiKey: newApiKey(), baseUrl: sys.baseUrl });
    const first = await caught(stranger.wallet.get());
    expect(first).toBeInstanceOf(AuthenticationError);
    expect(first).toMatchObject({ status: 401, code: "INVALID_API_KEY" });
    const missing = await caught(new AgenticApiClient({ baseUrl: sys.baseUrl }).wallet.get());
    expect(missing).toMatchObject({ status: 401, code: "AGENTIC_API_KEY_REQUIRED" });

    let limited: unknown;
    for (let i = 0; i < UNAUTHENTICATED_PER_MIN * 3 && !(limited instanceof RateLimitError); i++)
      limited = await caught(stranger.wallet.get());
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfter: expect.any(Number) });
    expect((limited as RateLimitError).retryAfter).toBeGreaterThan(0);
    // A valid key still passes from the same address.
    expect(await balance()).toBeGreaterThan(0);
  });
});
