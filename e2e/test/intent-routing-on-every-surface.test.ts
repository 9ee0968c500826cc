// Intent routing on every surface against the real system (every service as `npm start` runs it):
// the SDK's client.route({task}), the CLI's `agentic-api find "<task>"` (the built bin, a child
// process) and the MCP tool find_capability through the official MCP SDK client over Streamable HTTP.
// Each finds the capability of an in-scope task, abstains on one nothing does, and reads constraints.
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AgenticApiClient, InvalidRequestError } from "@agentic-api/sdk";
import { startSystem, type RunningSystem } from "./support/system";
import { newApiKey } from "./support/system-helpers";

const CLI = join(dirname(require.resolve("@agentic-api/sdk/package.json")), "dist", "cli", "main.js");
const CALLER = { key: newApiKey(), user: "intent-caller" };

let sys: RunningSystem;
let mcp: Client | undefined;

beforeAll(async () => {
  sys = await startSystem({ AGENTIC_API_KEYS: `${CALLER.key}:${CALLER.user}` });
}, 90_000);
afterAll(async () => {
  await mcp?.close();
  await sys?.stop();
});

describe("the SDK: client.route({task})", () => {
  it("finds the capability without a key, abstains on an out-of-scope task, reads constraints, and stays in a domain", async () => {
    const api = new AgenticApiClient({ baseUrl: sys.baseUrl });
    const found = await api.route({ task: "send an email to ana@example.com, cheapest route, under 20 credits" });
    expect(found.abstained).toBe(false);
    expect(found.matches[0]?.capabilityKey).toBe("email.send");
    expect(found.constraints).toEqual({ optimizationPreferences: ["cost"], maxPriceCredits: 20, fields: { to: "ana@example.com" } });
    const none = await api.route({ task: "open a pull request that fixes the typo", limit: 2 });
    expect(none.abstained).toBe(true);
    expect(none.matches.length).toBeLessThanOrEqual(2);
    const geo = await api.route({ task: "what time is it in Tokyo", domain: "geo", limit: 20 });
    expect(geo.matches[0]?.capabilityKey).toBe("geo.time.current");
    for (const m of geo.matches) expect(m.domainKey).toBe("geo");
    await expect(api.route({ task: "" })).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it("says whether the caller can run the top match when a key is configured", async () => {
    const keyed = await new AgenticApiClient({ baseUrl: sys.baseUrl, apiKey: CALLER.key }).route({ task: "what time is it in Tokyo" });
    expect(typeof keyed.matches[0]?.canExecuteNow).toBe("boolean");
  });
});

describe("the CLI: agentic-api find", () => {
  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [CLI, ...args],
        { env: { PATH: process.env.PATH, AGENTIC_API_BASE_URL: sys.baseUrl } as NodeJS.ProcessEnv },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });

  it("prints the best match and a table, the API's JSON with --json, and exits 2 on an empty task", async () => {
    const table = await cli(["find", "what time is it in Tokyo"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^best match: geo\.time\.current/m);
    expect(table.stdout).toMatch(/^CAPABILITY\s+SCORE\s+STATUS/m);
    const json = await cli(["find", "open a pull request that fixes the typo", "--json", "--limit", "2"]);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body.abstained).toBe(true);
    expect(body.matches.length).toBeLessThanOrEqual(2);
    const scoped = JSON.parse((await cli(["find", "scrape this page", "--domain", "geo", "--json"])).stdout);
    for (const m of scoped.matches) expect(m.domainKey).toBe("geo");
    const empty = await cli(["find", ""]);
    expect(empty.code).toBe(2);
  });
});

describe("MCP: find_capability", () => {
  it("is a read-only tool that finds the capability, abstains, and refuses an empty task", async () => {
    mcp = new Client({ name: "intent-routing-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${sys.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${CALLER.key}` } },
      }),
    );
    const tool = (await mcp.listTools()).tools.find((t) => t.name === "find_capability");
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
    const found = (await mcp.callTool({
      name: "find_capability",
      arguments: { task: "tell bob@example.com the invoice is attached" },
    })) as CallToolResult;
    expect(found.isError ?? false).toBe(false);
    expect(found.structuredContent).toMatchObject({ abstained: false, constraints: { fields: { to: "bob@example.com" } } });
    expect((found.structuredContent as any).matches[0].capabilityKey).toBe("email.send");
    const none = (await mcp.callTool({
      name: "find_capability",
      arguments: { task: "open a pull request that fixes the typo" },
    })) as CallToolResult;
    expect((none.structuredContent as any).abstained).toBe(true);
    const empty = (await mcp.callTool({ name: "find_capability", arguments: { task: "" } })) as CallToolResult;
    expect(empty.isError).toBe(true);
  });
});
