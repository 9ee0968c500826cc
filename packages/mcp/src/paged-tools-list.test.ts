// tools/list in pages, read with the official SDK's client over its in-memory transport: walking the
// cursor lists every tool once, each as McpServer itself lists it; a small tool set is one page; and
// a cursor of a tool set that changed since is refused, never answered with a mixed page.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { CapabilityCatalogEntry, CapabilityContract, RouteCatalogEntry } from "@agentic-api/sdk";
import { executableRoutes, type CatalogView } from "./catalog";
import { newMcpServer, registerToolSet, ToolRegistry } from "./server";
import { buildToolSet, type ToolSet } from "./tool-set";
import type { CallContext } from "./handlers";

/** A catalog view of `n` live capabilities, each with one live managed route: two tools each. */
function viewOf(n: number, version: string): CatalogView {
  const capabilities = Array.from({ length: n }, (_, i) => {
    const entry: CapabilityCatalogEntry = {
      capabilityKey: `demo.thing${i}`,
      capabilityId: `thing${i}`,
      domainKey: "demo",
      label: `Thing ${i}`,
      description: `Does thing ${i}.`,
      status: "live",
      supportedProviders: ["acme"],
      enabledProviders: ["acme"],
      supportedFeatures: [],
      availableRouteModes: ["managed"],
      routesEndpoint: null,
      contractStatus: "available",
    };
    const route: RouteCatalogEntry = {
      routeKey: `demo.thing${i}.acme`,
      domainKey: "demo",
      capabilityKey: entry.capabilityKey,
      capabilityId: entry.capabilityId,
      providerKey: "acme",
      providerLabel: "Acme",
      networkKey: "direct",
      routeMode: "managed",
      managedByAgenticApi: true,
      supportedFeatures: [],
      summary: "",
      startingCostCredits: 1,
      status: "live",
      billing: "per_call",
    };
    const fields = { requiredFields: [], optionalFields: [], conditionallyRequiredFields: [], fields: [], notes: [] };
    const contract: CapabilityContract = {
      domainKey: "demo",
      capabilityKey: entry.capabilityKey,
      capabilityId: entry.capabilityId,
      contractStatus: "available",
      recommend: { status: "available", ...fields },
      execute: { status: "available", ...fields },
      notes: [],
    };
    return { entry, routes: [route], executable: executableRoutes(entry, [route]), contract };
  });
  return { version, domains: [], capabilities };
}

const context = (): CallContext => {
  throw new Error("no tool is called here");
};

async function connected(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "paged-tools-list-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** Every tool, page by page; the number of pages. */
async function walk(client: Client): Promise<{ tools: Tool[]; pages: number }> {
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
}

/** The tools as McpServer's own tools/list shows them, registered as server.ts registers them. */
async function asMcpServerLists(set: ToolSet): Promise<Tool[]> {
  const server = newMcpServer("test");
  for (const def of set.tools)
    server.registerTool(
      def.name,
      {
        title: def.title,
        description: def.description,
        inputSchema: z.looseObject({}).meta(def.inputSchema),
        outputSchema: z.looseObject({}).meta(def.outputSchema),
        annotations: def.annotations,
        ...(def._meta ? { _meta: def._meta } : {}),
      },
      () => ({ content: [] }),
    );
  const client = await connected(server);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

describe("tools/list in pages", () => {
  const set = buildToolSet(viewOf(30, '"v1"'));

  it("walks every tool exactly once, each listed as McpServer lists it", async () => {
    const server = newMcpServer("test");
    registerToolSet(server, set, context, 7);
    const client = await connected(server);
    try {
      const { tools, pages } = await walk(client);
      expect(set.tools.length).toBeGreaterThan(60);
      expect(pages).toBe(Math.ceil(set.tools.length / 7));
      expect(tools.map((t) => t.name)).toEqual(set.tools.map((t) => t.name));
      expect(tools).toEqual(await asMcpServerLists(set));
    } finally {
      await client.close();
    }
  });

  it("lists a tool set smaller than a page in one answer without nextCursor", async () => {
    const server = newMcpServer("test");
    registerToolSet(server, set, context);
    const client = await connected(server);
    try {
      const page = await client.listTools();
      expect(page.nextCursor).toBeUndefined();
      expect(page.tools).toHaveLength(set.tools.length);
    } finally {
      await client.close();
    }
  });

  it("refuses a cursor of a tool set that changed since, and a made-up one, with InvalidParams", async () => {
    const server = newMcpServer("test");
    const registry = new ToolRegistry(server, context, 10);
    registry.apply(set);
    const client = await connected(server);
    try {
      const first = await client.listTools();
      expect(first.tools).toHaveLength(10);
      registry.apply(buildToolSet(viewOf(31, '"v2"')));
      await expect(client.listTools({ cursor: first.nextCursor! })).rejects.toThrow(/-32602.*changed since/s);
      await expect(client.listTools({ cursor: "bm90IGEgY3Vyc29y" })).rejects.toThrow(/-32602.*Invalid cursor/s);
      // Listed again from the start, the walk sees the new tool set whole.
      const { tools } = await walk(client);
      expect(tools.map((t) => t.name)).toContain("demo_thing30_execute");
      expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    } finally {
      await client.close();
    }
  });
});
