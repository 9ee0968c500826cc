// The MCP server against the real system (every service as `npm start` runs it, providers played by
// the sandbox), driven by the official MCP SDK's client over both transports: Streamable HTTP at the
// gateway's <base>/mcp, and stdio (`agentic-api-mcp`, the built bin). Each transport: the tool list
// (names from the catalog, schemas from the contracts, annotations, prices), discovery, recommend,
// an execute charged once and seen in usage, the same execute retried without a key (replayed, not
// charged), a gated capability, a short wallet, bad arguments, and no key. Then what only one
// transport has: HTTP's 401, 405, per-key limits and trace; stdio without a key or an API, and its
// list_changed when the catalog version changes.
import { createServer, type AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AgenticApiClient, type CapabilityCatalogEntry } from "@agentic-api/sdk";
import { startCatalogVersionProxy } from "./catalog-version-proxy";
import { startSystem, type RunningSystem } from "../support/system";
import { fund, newApiKey, until } from "../support/system-helpers";

type Kind = "http" | "stdio";
const KINDS: Kind[] = ["http", "stdio"];
/** The built bin, as `npx agentic-api-mcp` runs it. */
// The built stdio bin of the MCP package, as `npx agentic-api-mcp` runs it.
const BIN = join(dirname(require.resolve("@agentic-api/mcp/package.json")), "dist", "main.js");

/** Per transport: a funded caller and one with 1 credit (each its own user, so balances are the test's own). */
const CALLERS = Object.fromEntries(
  KINDS.map((kind) => [
    kind,
    { rich: { key: newApiKey(), user: `mcp-${kind}-rich` }, poor: { key: newApiKey(), user: `mcp-${kind}-poor` } },
  ]),
) as Record<Kind, { rich: { key: string; user: string }; poor: { key: string; user: string } }>;

let sys: RunningSystem;
const open: Client[] = [];

beforeAll(async () => {
  sys = await startSystem({
    // One request in flight per key: a tool call over HTTP (an MCP request whose tool makes a REST
    // request of the same key) works only because the two are counted in buckets of their own.
    RATE_LIMIT_MAX_IN_FLIGHT: "1",
    AGENTIC_API_KEYS: KINDS.flatMap((k) => [CALLERS[k].rich, CALLERS[k].poor])
      .map((c) => `${c.key}:${c.user}`)
      .join(","),
  });
  for (const kind of KINDS) {
    await fund(sys.baseUrl, CALLERS[kind].rich.user, 1_000);
    await fund(sys.baseUrl, CALLERS[kind].poor.user, 1);
  }
}, 90_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await sys?.stop();
});

interface ConnectOptions {
  key?: string;
  /** HTTP: headers of every request. */
  headers?: Record<string, string>;
  /** stdio: another API base URL, and more environment. */
  baseUrl?: string;
  env?: Record<string, string>;
}

async function connect(kind: Kind, opts: ConnectOptions = {}): Promise<Client> {
  const client = new Client({ name: "mcp-system-test", version: "1.0.0" });
  if (kind === "http") {
    const headers = { ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}), ...opts.headers };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sys.baseUrl}/mcp`), { requestInit: { headers } }));
  } else {
    const env = { AGENTIC_API_BASE_URL: opts.baseUrl ?? sys.baseUrl, ...(opts.key ? { AGENTIC_API_KEY: opts.key } : {}), ...opts.env };
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: "ignore" }));
  }
  open.push(client);
  return client;
}

/** The structured answer of a successful call. */
function answer(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  expect(r.isError ?? false).toBe(false);
  return r.structuredContent as Record<string, unknown>;
}

/** The error a failed call reports (its JSON text), after checking it is a tool error. */
function toolError(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  const json = r.content.find((c) => c.type === "text" && c.text.startsWith("{"));
  return JSON.parse((json as { text: string }).text) as Record<string, unknown>;
}

const apiAs = (key: string) => new AgenticApiClient({ apiKey: key, baseUrl: sys.baseUrl });
const balanceOf = async (key: string) => (await apiAs(key).wallet.get()).balanceCredits;
const chargesOf = async (key: string, capabilityKey: string) =>
  (await apiAs(key).usage.list({ capabilityKey, kind: "charge", limit: 100 })).filter((u) => (u.creditsCharged ?? 0) > 0);

/** Every capability of the catalog, over REST. */
async function catalogCapabilities(): Promise<CapabilityCatalogEntry[]> {
  const api = new AgenticApiClient({ baseUrl: sys.baseUrl });
  const domains = await api.catalog.domains.list();
  return (await Promise.all(domains.map((d) => api.catalog.capabilities.list(d.domainKey)))).flat();
}

const toolOf = (tools: Tool[], name: string) => {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
};
const nameOf = (c: CapabilityCatalogEntry, op: string) => `${c.domainKey}_${c.capabilityId.replaceAll("-", "_")}_${op}`;

describe.each(KINDS)("over %s", (kind) => {
  const { rich, poor } = CALLERS[kind];
  /** Each transport its own place, so its derived keys and charges are its own. */
  const zone = kind === "http" ? "Europe/Lisbon" : "Asia/Tokyo";
  let client: Client;
  beforeAll(async () => {
    client = await connect(kind, { key: rich.key });
  });

  it("lists a tool per capability and operation, from the live catalog: contract schemas, annotations, prices", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const capabilities = await catalogCapabilities();
    const live = capabilities.filter((c) => c.status === "live");
    const gated = capabilities.filter((c) => c.status === "recommend_only");
    expect(live.length).toBeGreaterThan(0);
    expect(gated.length).toBeGreaterThan(0);

    expect(names.filter((n) => n.endsWith("_execute")).sort()).toEqual(live.map((c) => nameOf(c, "execute")).sort());
    expect(names.filter((n) => n.endsWith("_recommend")).sort()).toEqual([...live, ...gated].map((c) => nameOf(c, "recommend")).sort());
    expect(names).toEqual(
      expect.arrayContaining([
        "find_capability",
        "list_domains",
        "list_capability_tools",
        "get_capability_contract",
        "recommend",
        "execute",
      ]),
    );
    expect(names).toHaveLength(6 + 2 * live.length + gated.length);

    const timeExecute = toolOf(tools, "geo_time_current_execute");
    expect(timeExecute.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(timeExecute.description).toMatch(/from 2 credits \(\$0\.002\) per call/);
    expect(timeExecute.description).toMatch(/new idempotencyKey/);
    expect(timeExecute.description).toMatch(/at least one of location, timezone/);
    expect(timeExecute.inputSchema).toMatchObject({
      type: "object",
      additionalProperties: false,
      properties: { timezone: { type: "string" }, location: { type: "string", maxLength: 200 }, idempotencyKey: { type: "string" } },
    });
    expect(timeExecute.outputSchema).toMatchObject({
      required: expect.arrayContaining(["idempotencyKey", "idempotencyKeyDerived", "replayed"]),
    });

    const send = toolOf(tools, "email_send_execute");
    expect(send.inputSchema.required).toEqual(["to", "subject"]);
    expect(send.inputSchema.properties).toMatchObject({
      to: { type: "string", minLength: 1, maxLength: 320 },
      cc: { type: "array", maxItems: 50 },
    });
    const chat = toolOf(tools, "models_chat_complete_execute");
    expect(chat.inputSchema.properties).toMatchObject({
      messages: {
        type: "array",
        items: { properties: { role: { enum: ["system", "user", "assistant", "tool"] } }, required: ["role", "content"] },
      },
      max_tokens: { type: "integer", minimum: 1, maximum: 32768 },
    });

    for (const name of ["list_domains", "list_capability_tools", "get_capability_contract", "recommend", "geo_time_current_recommend"]) {
      expect(toolOf(tools, name).annotations).toMatchObject({ readOnlyHint: true });
    }
    expect(toolOf(tools, "execute").annotations).toMatchObject({ destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(toolOf(tools, "text_analyze_recommend").description).toMatch(/Recommend only: execution is gated/);
  });

  it("answers the discovery tools from the catalog", async () => {
    const { domains } = answer(await client.callTool({ name: "list_domains", arguments: {} })) as { domains: Array<{ domainKey: string }> };
    expect(domains.map((d) => d.domainKey)).toEqual(expect.arrayContaining(["geo", "email", "text"]));

    const listed = answer(await client.callTool({ name: "list_capability_tools", arguments: { domain: "geo" } })) as {
      capabilities: Array<Record<string, unknown>>;
    };
    expect(listed.capabilities.find((c) => c.capabilityId === "time-current")).toMatchObject({
      executable: true,
      startingPriceCredits: 2,
      recommendTool: "geo_time_current_recommend",
      executeTool: "geo_time_current_execute",
    });
    // Every geo capability runs; video generation is still planned.
    const media = answer(await client.callTool({ name: "list_capability_tools", arguments: { domain: "media" } })) as {
      capabilities: Array<Record<string, unknown>>;
    };
    const planned = media.capabilities.find((c) => c.status === "planned");
    expect(planned).toMatchObject({ capabilityId: "video-generate", executable: false, recommendTool: "recommend" });
    expect(planned).not.toHaveProperty("executeTool");

    const contract = answer(
      await client.callTool({ name: "get_capability_contract", arguments: { domain: "geo", capabilityId: "time-current" } }),
    );
    expect(contract).toMatchObject({ capabilityKey: "geo.time.current", execute: { oneOfRequired: [["location", "timezone"]] } });
  });

  it("recommends the route and its price, for free", async () => {
    const before = await balanceOf(rich.key);
    const rec = answer(await client.callTool({ name: "geo_time_current_recommend", arguments: { optimizationPreferences: ["cost"] } }));
    expect(rec).toMatchObject({ recommendedProvider: "timeapi", canExecuteNow: true, blockingRequirements: [] });
    const candidates = rec.candidates as Array<{ routeKey: string; priceCredits: number }>;
    expect(candidates.find((c) => c.routeKey === rec.recommendedRouteKey)?.priceCredits).toBe(2);
    const generic = answer(await client.callTool({ name: "recommend", arguments: { domain: "geo", capabilityId: "time-current" } }));
    expect(generic.recommendedRouteKey).toBe(rec.recommendedRouteKey);
    expect(await balanceOf(rich.key)).toBe(before);
  });

  it("executes once and charges once: a retry without a key, even through the generic tool, replays the stored result", async () => {
    const before = await balanceOf(rich.key);
    const chargesBefore = (await chargesOf(rich.key, "geo.time.current")).length;

    const first = answer(await client.callTool({ name: "geo_time_current_execute", arguments: { timezone: zone } }));
    expect(first).toMatchObject({ success: true, provider: "timeapi", creditsCharged: 2, replayed: false, idempotencyKeyDerived: true });
    expect(first.data).toMatchObject({ timezone: zone });
    expect(first.idempotencyKey).toMatch(/^mcp1_[0-9a-f]{64}$/);
    expect(first.idempotencyKey).not.toContain(rich.key);

    const retried = answer(await client.callTool({ name: "geo_time_current_execute", arguments: { timezone: zone } }));
    expect(retried).toMatchObject({
      replayed: true,
      idempotencyKeyDerived: true,
      idempotencyKey: first.idempotencyKey,
      executionId: first.executionId,
    });
    expect(retried.data).toEqual(first.data);
    const viaGeneric = answer(
      await client.callTool({ name: "execute", arguments: { domain: "geo", capabilityId: "time-current", input: { timezone: zone } } }),
    );
    expect(viaGeneric).toMatchObject({ replayed: true, executionId: first.executionId });

    expect(await balanceOf(rich.key)).toBe(before - 2);
    await until(async () => (await chargesOf(rich.key, "geo.time.current")).length === chargesBefore + 1);
    expect(await balanceOf(rich.key)).toBe(before - 2);

    // A new idempotencyKey is how the same action is done again on purpose: it runs, and is charged.
    const again = answer(
      await client.callTool({
        name: "geo_time_current_execute",
        arguments: { timezone: zone, idempotencyKey: `again-${kind}-${Date.now()}` },
      }),
    );
    expect(again).toMatchObject({ replayed: false, idempotencyKeyDerived: false, creditsCharged: 2 });
    expect(again.executionId).not.toBe(first.executionId);
    expect(await balanceOf(rich.key)).toBe(before - 4);
  });

  it("has no execute tool for a gated capability, and the generic execute answers the API's refusal as a tool error", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("text_analyze_recommend");
    expect(tools.map((t) => t.name)).not.toContain("text_analyze_execute");
    const rec = answer(await client.callTool({ name: "text_analyze_recommend", arguments: {} }));
    expect(rec).toMatchObject({ canExecuteNow: false, blockingRequirements: expect.arrayContaining(["CAPABILITY_GATED"]) });

    const before = await balanceOf(rich.key);
    const refused = toolError(
      await client.callTool({ name: "execute", arguments: { domain: "text", capabilityId: "analyze", input: { text: "hi" } } }),
    );
    expect(refused).toMatchObject({ code: "CAPABILITY_GATED", status: 409, hint: expect.stringMatching(/recommend/) });
    expect(await balanceOf(rich.key)).toBe(before);
  });

  it("answers a short wallet with a tool error saying how many credits are missing, and charges nothing", async () => {
    const poorClient = await connect(kind, { key: poor.key });
    const refused = toolError(await poorClient.callTool({ name: "geo_time_current_execute", arguments: { timezone: zone } }));
    expect(refused).toMatchObject({
      code: "CREDITS_REQUIRED",
      status: 402,
      requiredCredits: 2,
      balanceCredits: 1,
      missingCredits: 1,
      idempotencyKeyDerived: true,
      hint: expect.stringMatching(/new idempotencyKey/),
    });
    const text = ((await poorClient.callTool({ name: "geo_time_current_execute", arguments: { timezone: zone } })) as CallToolResult)
      .content[0];
    expect(text).toMatchObject({ type: "text", text: expect.stringMatching(/^CREDITS_REQUIRED: .*1 credits are missing/) });
    expect(await balanceOf(poor.key)).toBe(1);
  });

  it("answers bad arguments with INVALID_INPUT tool errors, and keeps serving", async () => {
    const unknownField = toolError(await client.callTool({ name: "geo_time_current_execute", arguments: { timezone: zone, bogus: 1 } }));
    expect(unknownField).toMatchObject({ code: "INVALID_INPUT", status: 400, error: expect.stringMatching(/^bogus: unknown field/) });
    const wrongType = toolError(await client.callTool({ name: "geo_time_current_execute", arguments: { timezone: 42 } }));
    expect(wrongType).toMatchObject({ code: "INVALID_INPUT", error: expect.stringMatching(/^timezone: must be a string/) });
    const noInput = toolError(
      await client.callTool({ name: "execute", arguments: { domain: "geo", capabilityId: "time-current", input: "Lisbon" } }),
    );
    expect(noInput).toMatchObject({ code: "INVALID_INPUT", error: expect.stringMatching(/input must be an object/) });
    const badKey = toolError(await client.callTool({ name: "geo_time_current_execute", arguments: { timezone: zone, idempotencyKey: 7 } }));
    expect(badKey).toMatchObject({ code: "INVALID_INPUT", error: expect.stringMatching(/idempotencyKey must be a string/) });
    const noDomain = toolError(await client.callTool({ name: "list_capability_tools", arguments: { domain: "nope" } }));
    expect(noDomain).toMatchObject({ code: "DOMAIN_NOT_FOUND" });
    const noCapability = toolError(
      await client.callTool({ name: "get_capability_contract", arguments: { domain: "geo", capabilityId: "nope" } }),
    );
    expect(noCapability).toMatchObject({ status: 404 });

    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
  });
});

describe("over http only", () => {
  const { rich } = CALLERS.http;
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
  const post = (headers: Record<string, string>, body: unknown = initialize) =>
    fetch(`${sys.baseUrl}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });

  it("refuses a request without a key, or with a bad one, with the gateway's 401 ErrorResponse", async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(await none.json()).toMatchObject({
      success: false,
      code: "AGENTIC_API_KEY_REQUIRED",
      hint: expect.stringMatching(/Authorization: Bearer/),
    });
    const bad = await post({ authorization: `Bearer ${newApiKey()}` });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ success: false, code: "INVALID_API_KEY" });
    // The official client reports it as a StreamableHTTPError with the status as its code.
    await expect(connect("http", {})).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/AGENTIC_API_KEY_REQUIRED/) });
  });

  it("is stateless: no session id, any request stands alone, GET and DELETE answer 405", async () => {
    const init = await post({ authorization: `Bearer ${rich.key}` });
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(await init.json()).toMatchObject({ result: { serverInfo: { name: "agentic-api" }, capabilities: { tools: {} } } });
    // Without an initialize before it on this connection: a stateless server answers it anyway.
    const list = await post({ authorization: `Bearer ${rich.key}` }, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(5);
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${sys.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${rich.key}` } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  it("holds MCP requests to the key's limits apart from the REST requests their tools make", async () => {
    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "geo_time_current_recommend", arguments: {} } };
    const res = await post({ authorization: `Bearer ${rich.key}` }, call);
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toMatch(/"in-flight";q=1;/);
    const { result } = (await res.json()) as { result: CallToolResult };
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toMatchObject({ canExecuteNow: true });
  });

  it("makes each tool call one trace with the REST request it becomes, and a usage item of that trace", async () => {
    const traceId = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
    const traced = await connect("http", { key: rich.key, headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    const result = answer(
      await traced.callTool({
        name: "geo_time_convert_execute",
        arguments: { datetime: "2025-06-14T09:00:00", fromTimezone: "America/New_York", toTimezone: "Asia/Tokyo" },
      }),
    );
    expect(result).toMatchObject({ creditsCharged: 2, replayed: false });
    await until(async () =>
      (await apiAs(rich.key).usage.list({ capabilityKey: "geo.time.convert", limit: 20 })).some((u) => u.traceId === traceId),
    );
    const refused = toolError(await traced.callTool({ name: "geo_time_convert_execute", arguments: { datetime: "x" } }));
    expect(refused).toMatchObject({ code: "INVALID_INPUT", traceId });
  });
});

describe("over stdio only", () => {
  it("starts without a key: the catalog tools work, recommend and execute say how to set AGENTIC_API_KEY", async () => {
    const keyless = await connect("stdio", {});
    expect(answer(await keyless.callTool({ name: "list_domains", arguments: {} })).domains).not.toHaveLength(0);
    for (const name of ["geo_time_current_recommend", "geo_time_current_execute"]) {
      const refused = toolError(await keyless.callTool({ name, arguments: { timezone: "Europe/Lisbon" } }));
      expect(refused).toMatchObject({ code: "AGENTIC_API_KEY_REQUIRED", hint: expect.stringMatching(/AGENTIC_API_KEY/) });
    }
    const wrongKey = await connect("stdio", { key: newApiKey() });
    expect(toolError(await wrongKey.callTool({ name: "geo_time_current_recommend", arguments: {} }))).toMatchObject({
      code: "INVALID_API_KEY",
      status: 401,
    });
  });

  it("starts when the API cannot be reached: the discovery tools say why and where it looked", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const nowhere = `http://127.0.0.1:${closedPort}/api/agentic-api`;
    const stranded = await connect("stdio", { key: CALLERS.stdio.rich.key, baseUrl: nowhere });
    const refused = toolError(await stranded.callTool({ name: "list_domains", arguments: {} }));
    expect(refused).toMatchObject({ code: "NETWORK_ERROR", hint: expect.stringContaining(nowhere) });
  });

  it("rebuilds its tools when the catalog version changes and tells the client with notifications/tools/list_changed", async () => {
    const proxy = await startCatalogVersionProxy(sys.baseUrl);
    try {
      const watched = await connect("stdio", {
        key: CALLERS.stdio.rich.key,
        baseUrl: proxy.baseUrl,
        env: { AGENTIC_MCP_REFRESH_MS: "100" },
      });
      const before = (await watched.listTools()).tools.map((t) => t.name);
      expect(before).toContain("geo_time_convert_execute");
      const changed = new Promise<void>((resolve) => watched.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));

      proxy.change("geo", "time-convert");
      await changed;

      const after = (await watched.listTools()).tools.map((t) => t.name);
      expect(after).not.toContain("geo_time_convert_execute");
      expect(after).toContain("geo_time_convert_recommend");
      expect(after.length).toBe(before.length - 1);
    } finally {
      await proxy.close();
    }
  });
});
