// Test fixture: a real sandbox on a loopback port, the real rails paying it with a fresh wallet, and
// the provider registry pointed at it, so adapter tests run request → rail → vendor → result for real.
import { randomUUID } from "node:crypto";
import {
  SANDBOX_API_KEYS,
  SANDBOX_NETWORK,
  startSandbox,
  type RunningSandbox,
  AYRSHARE_PRIVATE_KEY,
  AYRSHARE_PROFILE_DOMAIN,
} from "@agentic/sandbox";
import { generatePrivateKey } from "viem/accounts";
import type { CapabilityInput, ProviderRegistry, ProviderResult } from "../domain/provider-port";
import type { RailNetwork, RailResponse, RailSet } from "../domain/rail-port";
import { createRails } from "../rails";
import { createProviderRegistry } from "./registry";

export const DEFAULT_FROM = "Agentic <noreply@agentic.dev>";

export interface RouteFixture {
  sandbox(): RunningSandbox;
  registry(): ProviderRegistry;
  /** Builds the provider request, sends it over the network's rail, parses the answer (a fresh idempotency key unless given). */
  execute(
    providerKey: string,
    network: RailNetwork,
    capabilityKey: string,
    input: CapabilityInput,
    idempotencyKey?: string,
  ): Promise<{ res: RailResponse; result: ProviderResult }>;
  /** Like execute, but returns what parseResponse threw. */
  executeError(
    providerKey: string,
    network: RailNetwork,
    capabilityKey: string,
    input: CapabilityInput,
    idempotencyKey?: string,
  ): Promise<unknown>;
}

export function useSandboxRoutes(): RouteFixture {
  let sandbox: RunningSandbox | undefined;
  let registry: ProviderRegistry | undefined;
  let rails: RailSet | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    const keys: Record<string, string> = SANDBOX_API_KEYS;
    registry = createProviderRegistry(
      Object.fromEntries(
        Object.entries(sandbox.baseUrls).map(([p, urls]) => [
          p,
          {
            endpoints: {
              direct: { baseUrl: urls.direct, ...(keys[p] ? { apiKey: keys[p] } : {}) },
              agentcash: { baseUrl: urls.agentcash },
              mpp: { baseUrl: urls.mpp },
            },
            settings: { defaultFrom: DEFAULT_FROM, profileDomain: AYRSHARE_PROFILE_DOMAIN, privateKey: AYRSHARE_PRIVATE_KEY },
          },
        ]),
      ),
    );
    const wallet = { privateKey: generatePrivateKey(), networks: [SANDBOX_NETWORK], maxPriceMicroUsd: 1_000_000 };
    rails = createRails({ x402: wallet, mpp: wallet });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
  beforeEach(() => {
    sandbox?.control.reset();
  });

  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("fixture not started");
    return value;
  };
  const call = async (
    providerKey: string,
    network: RailNetwork,
    capabilityKey: string,
    input: CapabilityInput,
    idempotencyKey = `exe_${randomUUID()}`,
  ) => {
    const provider = need(need(registry).get(providerKey, network));
    const rail = need(need(rails).get(network));
    const res = await rail.send(provider.adapter.buildRequest(capabilityKey, input, { ...provider.ctx, idempotencyKey }), {
      signal: AbortSignal.timeout(5000),
    });
    return { res, parse: () => provider.adapter.parseResponse(capabilityKey, res, input) };
  };
  return {
    sandbox: () => need(sandbox),
    registry: () => need(registry),
    async execute(providerKey, network, capabilityKey, input, idempotencyKey) {
      const { res, parse } = await call(providerKey, network, capabilityKey, input, idempotencyKey);
      return { res, result: parse() };
    },
    async executeError(providerKey, network, capabilityKey, input, idempotencyKey) {
      const { parse } = await call(providerKey, network, capabilityKey, input, idempotencyKey);
      try {
        parse();
      } catch (err) {
        return err;
      }
      throw new Error("expected parseResponse to throw");
    },
  };
}
