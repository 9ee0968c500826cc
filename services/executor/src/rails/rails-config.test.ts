import { SANDBOX_NETWORK, sandboxExecutorEnv, startSandbox, type RunningSandbox } from "@agentic/sandbox";
import { z } from "zod";
import { providersConfigFromEnv, providersEnvShape } from "../providers/providers-config";
import { createProviderRegistry } from "../providers/registry";
import { createRails, railsConfigFromEnv, railsEnvShape } from "./index";

const schema = z.object({ ...railsEnvShape, ...providersEnvShape });

describe("rails config", () => {
  it("defaults to the sandbox network and a 1 USD ceiling, and creates no paying rail without a key", () => {
    const env = schema.parse({});
    expect(env).toMatchObject({ X402_NETWORKS: [SANDBOX_NETWORK], X402_MAX_PRICE_MICRO_USD: 1_000_000, MPP_NETWORKS: [SANDBOX_NETWORK] });
    const rails = createRails(railsConfigFromEnv(env));
    expect(rails.networks).toEqual(["direct"]);
    expect(rails.get("mpp")).toBeUndefined();
  });

  it("rejects a malformed key, a non-CAIP-2 network and a network without known USDC", () => {
    expect(schema.safeParse({ X402_WALLET_PRIVATE_KEY: "0x1234" }).success).toBe(false);
    expect(schema.safeParse({ MPP_NETWORKS: "base" }).success).toBe(false);
    const env = schema.parse({ X402_WALLET_PRIVATE_KEY: `0x${"11".repeat(32)}`, X402_NETWORKS: "eip155:1" });
    expect(() => createRails(railsConfigFromEnv(env))).toThrow(/no known USDC on network "eip155:1"/);
  });
});

describe("an executor configured only from the environment", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.stop());

  it("reaches a provider on each rail with the sandbox's env (direct, agentcash, mpp)", async () => {
    const env = schema.parse(sandboxExecutorEnv(sandbox.url, sandbox.control.providers));
    const rails = createRails(railsConfigFromEnv(env));
    const registry = createProviderRegistry(providersConfigFromEnv(env));
    expect(rails.networks).toEqual(["direct", "agentcash", "mpp"]);
    const run = async (providerKey: string, network: string, capabilityKey: string, input: Record<string, unknown>) => {
      const provider = registry.get(providerKey, network);
      const rail = rails.get(network);
      if (!provider || !rail) throw new Error(`${providerKey} over ${network} is not configured`);
      const res = await rail.send(provider.adapter.buildRequest(capabilityKey, input, provider.ctx), {
        signal: AbortSignal.timeout(5000),
        maxPriceMicroUsd: 50_000,
      });
      return { res, result: provider.adapter.parseResponse(capabilityKey, res, input) };
    };
    expect((await run("postmark", "direct", "email.send", { to: "a@example.com", subject: "Hi", text: "Hi" })).result.status).toBe("sent");
    expect((await run("apollo", "agentcash", "enrichment.people.search", { seniorities: ["founder"] })).res.payment?.rail).toBe("x402");
    expect((await run("timeapi", "mpp", "geo.time.current", { timezone: "UTC" })).result.data).toMatchObject({
      timezone: "UTC",
      utcOffset: "+00:00",
    });
  });
});
