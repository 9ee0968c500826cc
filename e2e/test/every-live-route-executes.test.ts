// The catalog executes what it lists. Driven by the catalog itself, against the system as `npm start`
// runs it (real processes, the provider sandbox standing in for every vendor): every live capability
// runs on every live route with its contract's own request example through the gateway, is charged
// once, leaves one usage item carrying the route and the caller's trace, and that trace holds the
// provider call; a capability with two or more live routes falls back to another one when the first
// fails. Planned and recommend-only capabilities are refused, charge nothing and call no provider.
import { randomBytes } from "node:crypto";
import { waitFor } from "@agentic/testing";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver";
import { providerCallCount, sandboxControl } from "./support/sandbox-control";
import { startSystem, type RunningSystem } from "./support/system";

interface CatalogRoute {
  routeKey: string;
  providerKey: string;
  networkKey: string;
  status: string;
  startingCostCredits: number;
  billing?: string;
  /** Models a model-routed route serves (models.chat.complete); absent elsewhere. */
  models?: Array<{ model: string }>;
}
interface LiveCapability {
  domainKey: string;
  capabilityId: string;
  capabilityKey: string;
  example: Record<string, unknown>;
  routes: CatalogRoute[];
}
interface Refusable {
  domainKey: string;
  capabilityId: string;
  capabilityKey: string;
}

/**
 * Routes that act on a resource the caller owns (an inbox to send from, a parse job or a letter to read): the
 * capability that gets one (executed with its contract's example) and the field that names it.
 */
interface Acquisition {
  domainKey: string;
  capabilityId: string;
  field: string;
  /** The acquisition's body when its example would name a resource that already exists (an inbox's username). */
  fresh?: (example: Record<string, unknown>) => Record<string, unknown>;
}
const ACQUISITIONS: Readonly<Record<string, Acquisition>> = {
  "email.send.agentmail.mpp": {
    domainKey: "email",
    capabilityId: "inbox-buy",
    field: "inboxId",
    fresh: (example) => ({ ...example, username: `${String(example.username ?? "inbox")}-${randomBytes(4).toString("hex")}` }),
  },
  "document.parse.result.llamaparse": { domainKey: "document", capabilityId: "parse", field: "jobId" },
  "post.letter.status.lob": { domainKey: "post", capabilityId: "letter-send", field: "letterId" },
};

let sys: RunningSystem;
let otlp: OtlpReceiver;
const live: LiveCapability[] = [];
const refusable: Refusable[] = [];

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${sys.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${sys.apiKey}`, "content-type": "application/json", ...init.headers },
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}
async function read(path: string): Promise<any> {
  const res = await api(path);
  expect([path, res.status]).toEqual([path, 200]);
  return res.body;
}
const sandbox = (path: string, init?: RequestInit) => sandboxControl(sys, path, init);
const providerCalls = () => providerCallCount(sys);
const balance = async () => (await read("/wallet")).balanceCredits as number;
/** Resolves once no hold is open: every capture or release applied. */
const settled = () => waitFor(async () => (await read("/wallet")).reservedCredits === 0, { what: "every hold settled", timeoutMs: 10_000 });

/** POST …/execute as a traced client: its own W3C trace id, which the usage item must carry. */
async function execute(domainKey: string, capabilityId: string, body: unknown) {
  const traceId = randomBytes(16).toString("hex");
  const traceparent = `00-${traceId}-${randomBytes(8).toString("hex")}-01`;
  const res = await api(`/domains/${domainKey}/capabilities/${capabilityId}/execute`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { traceparent },
  });
  return { ...res, traceId };
}

/** The example, asking for a model the route serves where routes are chosen by model. */
function exampleFor(c: LiveCapability, route: CatalogRoute): Record<string, unknown> {
  const served = route.models?.map((m) => m.model);
  if (!served?.length || served.includes(c.example.model as string)) return { ...c.example };
  return { ...c.example, model: served[0] };
}

/** The example body for a route, with the owned resource a byo route sends from (acquired first). */
async function bodyFor(c: LiveCapability, route: CatalogRoute): Promise<Record<string, unknown>> {
  const acquisition = ACQUISITIONS[route.routeKey];
  if (!acquisition) return exampleFor(c, route);
  const contract = await read(`/domains/${acquisition.domainKey}/capabilities/${acquisition.capabilityId}/contract`);
  const example = contract.execute.requestExample as Record<string, unknown>;
  const bought = await execute(acquisition.domainKey, acquisition.capabilityId, acquisition.fresh ? acquisition.fresh(example) : example);
  expect([acquisition.capabilityId, bought.status, bought.body.code]).toEqual([acquisition.capabilityId, 200, undefined]);
  return { ...exampleFor(c, route), [acquisition.field]: bought.body.data[acquisition.field] };
}

/**
 * The routes one request can fall back between: those not needing an owned resource and, where routes
 * are chosen by model, those serving one model that two or more of them serve (asked with that model).
 */
function fallbackSet(c: LiveCapability): { routes: CatalogRoute[]; body: Record<string, unknown> } {
  const plain = c.routes.filter((r) => !ACQUISITIONS[r.routeKey]);
  if (!plain.some((r) => r.models?.length)) return { routes: plain, body: { ...c.example } };
  const serving = (model: string) => plain.filter((r) => r.models?.some((m) => m.model === model));
  const shared = [...new Set(plain.flatMap((r) => r.models?.map((m) => m.model) ?? []))].find((m) => serving(m).length >= 2);
  return shared ? { routes: serving(shared), body: { ...c.example, model: shared } } : { routes: [], body: {} };
}

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  sys = await startSystem({
    ...otlp.exporterEnv,
    // One key drives every route back to back (and polls its wallet): above the default 20 requests a second.
    RATE_LIMIT_RPS: "1000",
    RATE_LIMIT_BURST: "2000",
  });
  for (const domain of await read("/domains")) {
    for (const c of await read(`/domains/${domain.domainKey}/capabilities`)) {
      if (c.status !== "live") {
        refusable.push({ domainKey: c.domainKey, capabilityId: c.capabilityId, capabilityKey: c.capabilityKey });
        continue;
      }
      const path = `/domains/${c.domainKey}/capabilities/${c.capabilityId}`;
      const routes = ((await read(`${path}/routes`)) as CatalogRoute[]).filter((r) => r.status === "live");
      const example = (await read(`${path}/contract`)).execute?.requestExample;
      live.push({ domainKey: c.domainKey, capabilityId: c.capabilityId, capabilityKey: c.capabilityKey, example, routes });
    }
  }
}, 90_000);
afterAll(async () => {
  await sys?.stop();
  await otlp?.close();
});
beforeEach(async () => {
  await sandbox("/reset", { method: "POST" });
  expect((await api("/dev/init", { method: "POST", body: JSON.stringify({ balanceCredits: 1_000_000 }) })).status).toBe(200);
});

it("finds the catalog's live capabilities, each with a request example and at least one live route", () => {
  expect(live.length).toBeGreaterThan(0);
  for (const c of live) expect([c.capabilityKey, typeof c.example, c.routes.length > 0]).toEqual([c.capabilityKey, "object", true]);
});

it("runs each live route with the contract's example: 200 from that route, charged once, one usage item in the caller's trace", async () => {
  for (const c of live) {
    for (const route of c.routes) {
      const body = await bodyFor(c, route);
      await settled();
      const before = await balance();
      const res = await execute(c.domainKey, c.capabilityId, { ...body, routeKey: route.routeKey });
      expect([route.routeKey, res.status, res.body.code, res.body.error]).toEqual([route.routeKey, 200, undefined, undefined]);
      expect([route.routeKey, res.body.routeKey, res.body.provider]).toEqual([route.routeKey, route.routeKey, route.providerKey]);
      const charged: number = res.body.creditsCharged;
      // A flat route charges its price; a per-token one what the vendor's usage cost (never more than it held).
      const priced = route.billing === "per_token" ? charged > 0 : charged === route.startingCostCredits;
      expect([route.routeKey, charged, priced]).toEqual([route.routeKey, charged, true]);
      await settled();
      expect([route.routeKey, before - (await balance())]).toEqual([route.routeKey, charged]);
      const items = ((await read("/usage?limit=100")).items as any[]).filter((u) => u.traceId === res.traceId);
      expect([route.routeKey, items.length]).toEqual([route.routeKey, 1]);
      expect(items[0]).toMatchObject({ routeKey: route.routeKey, creditsCharged: charged });
      // The caller's trace holds the executor's call to the provider on this route.
      const inTrace = (all: ReceivedSpan[], test: (s: ReceivedSpan) => boolean) => all.some((s) => s.traceId === res.traceId && test(s));
      await otlp.waitFor(
        (all) =>
          inTrace(all, (s) => s.service === "gateway") &&
          inTrace(all, (s) => s.service === "executor" && s.name === `provider ${route.routeKey}`),
      );
    }
  }
});

it("falls back to another live route when the first one fails, charging only the route that served", async () => {
  const multiRoute = live.map((c) => ({ c, ...fallbackSet(c) })).filter((x) => x.routes.length >= 2);
  expect(multiRoute.length).toBeGreaterThan(0);
  for (const { c, routes, body } of multiRoute) {
    const first = routes[0]!;
    // The first route's vendor fails its next call only, so a second route of the same vendor (another rail) can still serve.
    await sandbox("/faults", { method: "POST", body: JSON.stringify({ provider: first.providerKey, mode: "5xx", count: 1 }) });
    await settled();
    const before = await balance();
    const res = await execute(c.domainKey, c.capabilityId, { ...body, routeKey: first.routeKey, allowFallback: true });
    expect([c.capabilityKey, res.status, res.body.code, res.body.error]).toEqual([c.capabilityKey, 200, undefined, undefined]);
    const servedBy = routes.map((r) => r.routeKey).filter((k) => k !== first.routeKey);
    expect([c.capabilityKey, servedBy.includes(res.body.routeKey)]).toEqual([c.capabilityKey, true]);
    await settled();
    expect([c.capabilityKey, before - (await balance())]).toEqual([c.capabilityKey, res.body.creditsCharged]);
    await sandbox("/reset", { method: "POST" });
  }
});

it("refuses planned and recommend-only capabilities without a charge or a provider call", async () => {
  expect(refusable.length).toBeGreaterThan(0);
  const [before, calls, used] = [await balance(), await providerCalls(), (await read("/usage?limit=100")).items.length];
  for (const c of refusable) {
    const res = await execute(c.domainKey, c.capabilityId, {});
    expect([c.capabilityKey, res.status >= 400 && res.status < 500, typeof res.body.code, typeof res.body.hint]).toEqual([
      c.capabilityKey,
      true,
      "string",
      "string",
    ]);
  }
  await settled();
  expect(await balance()).toBe(before);
  expect(await providerCalls()).toBe(calls);
  expect((await read("/usage?limit=100")).items.length).toBe(used);
});
