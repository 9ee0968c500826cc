// MCP tools/list over real HTTP on a generated catalog (four times the shipped one, 220
// capabilities), read with the official MCP SDK client: below MCP_GENERIC_TOOLS_ABOVE every
// capability has tools of its own, listed in pages that a cursor walk sees once each; past it the
// list is the generic tools plus find_capability, whatever the catalog's size, and those tools reach
// any capability (list_capability_tools names them, the generic recommend runs one with a limit).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { generateTestCatalog } from "@agentic/catalog/testing";
import { startBackedSystem, TEST_KEY, type BackedSystem } from "./backed-system";
import { startTestGateway, type TestGateway } from "./harness";

const GENERIC_TOOLS = ["find_capability", "list_domains", "list_capability_tools", "get_capability_contract", "recommend", "execute"];

describe("MCP tools/list at catalog scale", () => {
  let dir: string;
  let sys: BackedSystem;
  /** A gateway with the production threshold (200): the generated catalog is past it. */
  let generic: TestGateway;
  const clients: Client[] = [];

  const connect = async (baseUrl: string): Promise<Client> => {
    const client = new Client({ name: "mcp-scale-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TEST_KEY}` } } }),
    );
    clients.push(client);
    return client;
  };

  const walk = async (client: Client): Promise<{ tools: Tool[]; pages: number }> => {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      pages++;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { tools, pages };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "mcp-scale-"));
    generateTestCatalog(4, dir, { wide: 30 });
    // The system's own gateway lists a tool per capability however large the catalog is.
    sys = await startBackedSystem({ catalogDir: dir, mcpGenericToolsAbove: 100_000 });
    generic = await startTestGateway({
      catalogAddress: sys.catalog.address,
      ledgerAddress: sys.ledger.address,
      routerAddress: sys.router.address,
      executorAddress: sys.executor.address,
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await generic?.stop();
    await sys?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("below the threshold gives capabilities tools of their own, in pages that list every tool once", async () => {
    const { tools, pages } = await walk(await connect(sys.gw.baseUrl));
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining([...GENERIC_TOOLS, "email3_send_execute", "wide_fanout_lookup_recommend"]));
    expect(pages).toBe(Math.ceil(names.length / 200));
    expect(pages).toBeGreaterThan(1);
  });

  it("past the threshold lists the generic tools plus find_capability, on one page", async () => {
    const capabilities = sys.catalog.catalog.listDomains().reduce((n, d) => n + d.totalCapabilityCount, 0);
    expect(capabilities).toBeGreaterThan(200);
    const client = await connect(generic.baseUrl);
    const { tools, pages } = await walk(client);
    expect(tools.map((t) => t.name).sort()).toEqual([...GENERIC_TOOLS].sort());
    expect(pages).toBe(1);
    const recommend = tools.find((t) => t.name === "recommend")!;
    expect(recommend.inputSchema.properties).toHaveProperty("limit");
  });

  it("past the threshold its tools reach any capability: listed with the generic tools, recommended with a limit", async () => {
    const client = await connect(generic.baseUrl);
    const listed = (await client.callTool({ name: "list_capability_tools", arguments: { domain: "wide" } })) as CallToolResult;
    expect(listed.isError ?? false).toBe(false);
    expect(listed.structuredContent).toMatchObject({
      capabilities: [{ capabilityKey: "wide.fanout.lookup", recommendTool: "recommend", executeTool: "execute", executable: true }],
    });
    const rec = (await client.callTool({
      name: "recommend",
      arguments: { domain: "wide", capabilityId: "fanout-lookup", input: { agentName: "mcp_agent" }, limit: 3 },
    })) as CallToolResult;
    expect(rec.isError ?? false).toBe(false);
    expect(rec.structuredContent).toMatchObject({ productKey: "wide.fanout-lookup", candidatesOmitted: 27 });
    expect((rec.structuredContent as { candidates: unknown[] }).candidates).toHaveLength(3);
  });
});
