// Every status a route answers is in the document: for every operation of the served /openapi.json,
// requests over real HTTP provoke the statuses that need no staged failure (success, 304, 400, 401, 404,
// 413, 415, and 503 where a part is not configured), each status is asserted as answered, then found
// among the operation's documented responses. And a field's limit is where the document says: a value
// at the documented bound passes, one past it is a 400 naming the field (the route and the document read
// one zod schema, so moving the bound in that schema moves both): a body field (POST /route, recommend,
// top-up), a query parameter (GET /usage, a catalog list) and a header (Agent-Name, Idempotency-Key).
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody } from "./execute-helpers";

interface Bounds {
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

type Doc = {
  info: { license?: { name?: string } };
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  components: {
    schemas: Record<string, { properties: Record<string, Bounds> }>;
    parameters: Record<string, { name: string; in: string; schema: Bounds }>;
  };
};

interface Provocation {
  operationId: string;
  status: number;
  path: string;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  key?: string | null;
}

const CAP = "/domains/email/capabilities/send";
const UNKNOWN_CAP = "/domains/email/capabilities/no-such-capability";
const JSON_HEADERS = { "content-type": "application/json" };
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const HUGE = JSON.stringify({ padding: "x".repeat(2 * 1024 * 1024) });
const BAD_KEY = "aak_NoSuchKeyForGatewayTests00000000000000009";

/** Statuses of the authenticated operations that every one of them can be made to answer. */
function keyed(operationId: string, path: string, method: "GET" | "POST" = "GET"): Provocation[] {
  return [
    { operationId, status: 401, path, method, key: null },
    { operationId, status: 401, path, method, key: BAD_KEY },
  ];
}

function posted(operationId: string, path: string, key: string | null | undefined): Provocation[] {
  return [
    { operationId, status: 400, path, method: "POST", body: "[]", headers: JSON_HEADERS, key },
    { operationId, status: 400, path, method: "POST", body: "{not json", headers: JSON_HEADERS, key },
    { operationId, status: 415, path, method: "POST", body: "a=1", headers: FORM, key },
    { operationId, status: 413, path, method: "POST", body: HUGE, headers: JSON_HEADERS, key },
  ];
}

const catalogReads: Array<[string, string, boolean]> = [
  ["listDomains", "/domains", true],
  ["searchCapabilities", "/capabilities", true],
  ["searchRoutes", "/routes", true],
  ["getDomain", "/domains/email", false],
  ["listCapabilities", "/domains/email/capabilities", true],
  ["getCapability", CAP, false],
  ["listDomainRoutes", "/domains/email/routes", true],
  ["listCapabilityRoutes", `${CAP}/routes`, true],
  ["getCapabilityContract", `${CAP}/contract`, false],
];

const PROVOCATIONS: Provocation[] = [
  ...catalogReads.flatMap(([operationId, path, paged]): Provocation[] => [
    { operationId, status: 200, path, key: null },
    ...(paged
      ? [
          { operationId, status: 400, path: `${path}?limit=0`, key: null },
          { operationId, status: 400, path: `${path}?limit=100000`, key: null },
          { operationId, status: 400, path: `${path}?cursor=not-a-cursor`, key: null },
        ]
      : []),
  ]),
  { operationId: "getDomain", status: 404, path: "/domains/no-such-domain", key: null },
  { operationId: "listCapabilities", status: 404, path: "/domains/no-such-domain/capabilities", key: null },
  { operationId: "listDomainRoutes", status: 404, path: "/domains/no-such-domain/routes", key: null },
  { operationId: "getCapability", status: 404, path: UNKNOWN_CAP, key: null },
  { operationId: "listCapabilityRoutes", status: 404, path: `${UNKNOWN_CAP}/routes`, key: null },
  { operationId: "getCapabilityContract", status: 404, path: `${UNKNOWN_CAP}/contract`, key: null },

  { operationId: "recommendRoute", status: 200, path: `${CAP}/recommend`, method: "POST", body: "{}", headers: JSON_HEADERS },
  { operationId: "recommendRoute", status: 404, path: `${UNKNOWN_CAP}/recommend`, method: "POST", body: "{}", headers: JSON_HEADERS },
  { operationId: "recommendRoute", status: 400, path: `${CAP}/recommend`, method: "POST", headers: { "agent-name": "a".repeat(101) } },
  ...keyed("recommendRoute", `${CAP}/recommend`, "POST"),
  ...posted("recommendRoute", `${CAP}/recommend`, undefined),

  { operationId: "executeCapability", status: 404, path: `${UNKNOWN_CAP}/execute`, method: "POST", body: "{}", headers: JSON_HEADERS },
  ...keyed("executeCapability", `${CAP}/execute`, "POST"),
  ...posted("executeCapability", `${CAP}/execute`, undefined),

  { operationId: "quoteCapability", status: 404, path: `${UNKNOWN_CAP}/quote`, method: "POST", body: "{}", headers: JSON_HEADERS },
  ...keyed("quoteCapability", `${CAP}/quote`, "POST"),
  ...posted("quoteCapability", `${CAP}/quote`, undefined),

  { operationId: "getExecution", status: 400, path: "/executions/not.an.id" },
  { operationId: "getExecution", status: 404, path: "/executions/exe_noSuchExecution" },
  ...keyed("getExecution", "/executions/exe_noSuchExecution"),

  { operationId: "getWallet", status: 200, path: "/wallet" },
  { operationId: "getWallet", status: 400, path: "/wallet", headers: { "agent-name": "a".repeat(101) } },
  ...keyed("getWallet", "/wallet"),

  // This gateway's ledger takes no payments: a well-formed top-up is the documented 503 TOP_UP_UNAVAILABLE.
  {
    operationId: "topUpWallet",
    status: 503,
    path: "/wallet/top-up",
    method: "POST",
    body: '{"amountCredits":5000}',
    headers: JSON_HEADERS,
  },
  { operationId: "topUpWallet", status: 400, path: "/wallet/top-up", method: "POST", body: '{"amountCredits":1}', headers: JSON_HEADERS },
  ...keyed("topUpWallet", "/wallet/top-up", "POST"),
  ...posted("topUpWallet", "/wallet/top-up", undefined),

  ...(["listUsage", "summarizeUsage", "exportUsage"] as const).flatMap((operationId): Provocation[] => {
    const path = { listUsage: "/usage", summarizeUsage: "/usage/summary", exportUsage: "/usage/export" }[operationId];
    return [
      { operationId, status: 200, path },
      { operationId, status: 400, path: `${path}?from=yesterday` },
      { operationId, status: 400, path: `${path}?nope=1` },
      ...keyed(operationId, path),
    ];
  }),
  { operationId: "getOverview", status: 200, path: "/overview" },
  { operationId: "getOverview", status: 400, path: "/overview?latest=0" },
  { operationId: "getOverview", status: 400, path: "/overview?to=2026-01-01T00:00:00Z&from=2026-02-01T00:00:00Z" },
  ...keyed("getOverview", "/overview"),
  { operationId: "listUsage", status: 400, path: "/usage?limit=0" },
  { operationId: "listUsage", status: 400, path: "/usage?limit=101" },

  ...(["routeTask", "routeDomainTask"] as const).flatMap((operationId): Provocation[] => {
    const path = operationId === "routeTask" ? "/route" : "/domains/email/route";
    return [
      { operationId, status: 200, path, method: "POST", body: '{"task":"send an email"}', headers: JSON_HEADERS, key: null },
      { operationId, status: 200, path, method: "POST", body: '{"task":"send an email"}', headers: JSON_HEADERS },
      { operationId, status: 400, path, method: "POST", body: '{"task":"send an email","limit":21}', headers: JSON_HEADERS, key: null },
      { operationId, status: 401, path, method: "POST", body: '{"task":"send an email"}', headers: JSON_HEADERS, key: BAD_KEY },
      ...posted(operationId, path, null),
    ];
  }),
  {
    operationId: "routeDomainTask",
    status: 404,
    path: "/domains/no-such-domain/route",
    method: "POST",
    body: '{"task":"x"}',
    headers: JSON_HEADERS,
    key: null,
  },

  {
    operationId: "devInit",
    status: 200,
    path: "/dev/init",
    method: "POST",
    body: '{"userId":"documented-user"}',
    headers: JSON_HEADERS,
    key: null,
  },
  {
    operationId: "devInit",
    status: 400,
    path: "/dev/init",
    method: "POST",
    body: '{"balanceCredits":0}',
    headers: JSON_HEADERS,
    key: null,
  },
  ...posted("devInit", "/dev/init", null),
];

let sys: BackedSystem;
let doc: Doc;
const operations = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  sys = await startBackedSystem({ devRoutes: true });
  doc = (await (await fetch(`${sys.gw.baseUrl}/openapi.json`)).json()) as Doc;
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) operations.set(op.operationId, op.responses);
});
afterAll(() => sys.stop());

async function send(p: Provocation): Promise<Response> {
  const headers: Record<string, string> = { ...(p.headers ?? {}) };
  if (p.key !== null) headers.authorization = `Bearer ${p.key ?? "aak_TestKeyForGatewayTests000000000000000001"}`;
  return fetch(sys.gw.baseUrl + p.path, { method: p.method ?? "GET", headers, ...(p.body !== undefined ? { body: p.body } : {}) });
}

describe("every status a route answers is in the document", () => {
  it("provokes every operation of the document", () => {
    expect([...new Set(PROVOCATIONS.map((p) => p.operationId))].sort()).toEqual([...operations.keys()].sort());
  });

  it.each(PROVOCATIONS.map((p) => [`${p.operationId} ${p.method ?? "GET"} ${p.path.slice(0, 60)} → ${p.status}`, p] as const))(
    "%s is answered and documented",
    async (_name, p) => {
      const res = await send(p);
      await res.arrayBuffer();
      expect(res.status).toBe(p.status);
      expect({ op: p.operationId, documented: Object.keys(operations.get(p.operationId)!) }).toEqual({
        op: p.operationId,
        documented: expect.arrayContaining([String(p.status)]),
      });
    },
  );

  it("answers 304 to a catalog read's own ETag, as documented", async () => {
    for (const [operationId, path] of catalogReads) {
      const etag = (await fetch(sys.gw.baseUrl + path)).headers.get("etag")!;
      const res = await fetch(sys.gw.baseUrl + path, { headers: { "if-none-match": etag } });
      expect({ operationId, status: res.status }).toEqual({ operationId, status: 304 });
      expect(Object.keys(operations.get(operationId)!)).toContain("304");
    }
  });
});

describe("the document passes the strict rules clients' linters apply", () => {
  it("names a license and gives every operation a 4XX answer", () => {
    expect(doc.info.license?.name).toEqual(expect.any(String));
    for (const [id, responses] of operations)
      expect({ id, fourXX: Object.keys(responses).some((s) => /^4/.test(s)) }).toEqual({ id, fourXX: true });
  });
});

describe("a field's limit is where the document says", () => {
  const post = (path: string, body: unknown, key: string | null = null) =>
    send({ operationId: "", status: 0, path, method: "POST", body: JSON.stringify(body), headers: JSON_HEADERS, key });

  it("POST /route: task at RouteTaskRequest's maxLength passes, one character more is a 400 naming task", async () => {
    const max = doc.components.schemas.RouteTaskRequest!.properties.task!.maxLength!;
    expect(max).toBeGreaterThan(0);
    expect((await post("/route", { task: `send an email ${"x".repeat(max - 14)}` })).status).toBe(200);
    const over = await post("/route", { task: "x".repeat(max + 1) });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "INVALID_INPUT", error: `task: must be at most ${max} characters` });
  });

  it("POST /route: limit at its documented maximum passes, one more is a 400 naming limit", async () => {
    const max = doc.components.schemas.RouteTaskRequest!.properties.limit!.maximum!;
    expect((await post("/route", { task: "send an email", limit: max })).status).toBe(200);
    const over = await post("/route", { task: "send an email", limit: max + 1 });
    expect(await over.json()).toMatchObject({ code: "INVALID_INPUT", error: expect.stringMatching(/^limit: /) });
  });

  /** POST `body` as JSON with the test key. */
  const postKeyed = (path: string, body: unknown) =>
    send({ operationId: "", status: 0, path, method: "POST", body: JSON.stringify(body), headers: JSON_HEADERS });

  /** The refusal's `error`, or undefined when the answer is not a 400. */
  const refusal = async (res: Response): Promise<string | undefined> => {
    const body = (await res.json()) as { code?: string; error?: string };
    return res.status === 400 ? `${body.code} ${body.error}` : undefined;
  };

  it("recommend: maxPriceCredits at RecommendRequest's minimum passes, one less is a 400 naming maxPriceCredits", async () => {
    const min = doc.components.schemas.RecommendRequest!.properties.maxPriceCredits!.minimum!;
    expect(min).toEqual(expect.any(Number));
    const recommend = (maxPriceCredits: number) => postKeyed(`${CAP}/recommend`, { maxPriceCredits });
    expect((await recommend(min)).status).toBe(200);
    expect(await refusal(await recommend(min - 1))).toMatch(/^INVALID_INPUT maxPriceCredits: /);
  });

  it("POST /wallet/top-up: each amount at TopUpRequest's bounds passes, just past them is a 400 naming it", async () => {
    const { amountCredits, amountUsd } = doc.components.schemas.TopUpRequest!.properties;
    const topUp = (body: unknown) => postKeyed("/wallet/top-up", body);
    // Well-formed: this ledger takes no payments, so the documented 503 TOP_UP_UNAVAILABLE, not a 400.
    for (const body of [
      { amountCredits: amountCredits!.minimum },
      { amountCredits: amountCredits!.maximum },
      { amountUsd: amountUsd!.minimum },
      { amountUsd: amountUsd!.maximum },
    ])
      expect({ body, status: (await topUp(body)).status }).toEqual({ body, status: 503 });
    expect(await refusal(await topUp({ amountCredits: amountCredits!.minimum! - 1 }))).toMatch(/^INVALID_INPUT amountCredits: /);
    expect(await refusal(await topUp({ amountCredits: amountCredits!.maximum! + 1 }))).toMatch(/^INVALID_INPUT amountCredits: /);
    expect(await refusal(await topUp({ amountUsd: amountUsd!.maximum! + 0.001 }))).toMatch(/^INVALID_INPUT amountUsd: /);
  });

  it("Agent-Name: a name at the header's documented maxLength passes, one character more is a 400 naming the header", async () => {
    const param = doc.components.parameters.AgentName!;
    expect(param).toMatchObject({ name: "Agent-Name", in: "header" });
    const max = param.schema.maxLength!;
    const wallet = (name: string) => send({ operationId: "", status: 0, path: "/wallet", headers: { "agent-name": name } });
    expect((await wallet("a".repeat(max))).status).toBe(200);
    expect(await refusal(await wallet("a".repeat(max + 1)))).toMatch(/^INVALID_INPUT Agent-Name: /);
  });

  it("Idempotency-Key: a key at the header's documented maxLength reaches the executor, one character more is a 400 naming it", async () => {
    const param = doc.components.parameters.IdempotencyKey!;
    expect(param).toMatchObject({ name: "Idempotency-Key", in: "header" });
    const max = param.schema.maxLength!;
    const execute = (key: string) =>
      send({
        operationId: "",
        status: 0,
        path: `${CAP}/execute`,
        method: "POST",
        body: JSON.stringify(emailBody()),
        headers: { ...JSON_HEADERS, "idempotency-key": key },
      });
    // Accepted: the call goes on to the wallet, which this key's user has not funded (402), or runs.
    const atMax = await execute(`${Date.now()}-`.padEnd(max, "k"));
    expect(await refusal(atMax)).toBeUndefined();
    expect(await refusal(await execute("k".repeat(max + 1)))).toMatch(/^INVALID_INPUT Idempotency-Key: /);
  });

  it("a catalog list: limit at the documented maximum passes, one more is a 400 naming limit", async () => {
    const max = doc.components.parameters.pageLimit!.schema.maximum!;
    expect((await send({ operationId: "", status: 0, path: `/capabilities?limit=${max}`, key: null })).status).toBe(200);
    const over = await send({ operationId: "", status: 0, path: `/capabilities?limit=${max + 1}`, key: null });
    expect(await refusal(over)).toMatch(/^INVALID_INPUT limit: /);
  });

  it("GET /usage: limit at the documented maximum passes, one more is a 400 naming limit", async () => {
    const max = doc.components.parameters.limit!.schema.maximum!;
    expect((await send({ operationId: "", status: 0, path: `/usage?limit=${max}` })).status).toBe(200);
    const over = await send({ operationId: "", status: 0, path: `/usage?limit=${max + 1}` });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "INVALID_INPUT", error: expect.stringMatching(/^limit: /) });
  });
});
