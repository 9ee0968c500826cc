// Test fixture: runs an adapter's multi-request flow as an attempt does (domain/vendor-flow.ts), over a real
// rail to the sandbox of useSandboxRoutes(), with the context the registry gives the provider.
import { randomUUID } from "node:crypto";
import { generatePrivateKey } from "viem/accounts";
import { SANDBOX_NETWORK } from "@agentic/sandbox";
import type { CapabilityInput, ProviderAdapter } from "../domain/provider-port";
import type { RailNetwork } from "../domain/rail-port";
import { runFlow, type FlowOutcome } from "../domain/vendor-flow";
import { createRails } from "../rails";
import type { RouteFixture } from "./sandbox-route.fixture";

export interface FlowRun {
  /** The adapter to run (default: the registry's, so a test can bring one with its own token clock). */
  adapter?: ProviderAdapter;
  network?: RailNetwork;
  /** Our key in place of the sandbox's (a refused one). */
  apiKey?: string;
  deadlineMs?: number;
  requestTimeoutMs?: number;
}

/** Runs `capabilityKey`'s flow of `providerKey` once; the outcome as the attempt runner sees it. */
export async function runFlowOnSandbox(
  routes: RouteFixture,
  providerKey: string,
  capabilityKey: string,
  input: CapabilityInput,
  run: FlowRun = {},
): Promise<FlowOutcome> {
  const network = run.network ?? "direct";
  const provider = routes.registry().get(providerKey, network);
  if (!provider) throw new Error(`${providerKey} is not configured on ${network}`);
  const adapter = run.adapter ?? provider.adapter;
  const flow = adapter.flows?.[capabilityKey];
  if (!flow) throw new Error(`${providerKey} has no flow for ${capabilityKey}`);
  const wallet = { privateKey: generatePrivateKey(), networks: [SANDBOX_NETWORK], maxPriceMicroUsd: 1_000_000 };
  const rail = createRails({ x402: wallet, mpp: wallet }).get(network)!;
  const ctx = { ...provider.ctx, ...(run.apiKey ? { credentials: { apiKey: run.apiKey } } : {}), idempotencyKey: `exe_${randomUUID()}` };
  // Checked when the route is planned, as the planner does.
  adapter.buildRequest(capabilityKey, input, ctx);
  return runFlow((vendor) => flow(input, ctx, vendor), rail, {
    deadlineMs: run.deadlineMs ?? 5_000,
    requestTimeoutMs: run.requestTimeoutMs ?? 5_000,
  });
}

/** The flow's result, or a test failure naming what it threw. */
export function served(outcome: FlowOutcome) {
  if (!outcome.ok) throw new Error(`the flow failed: ${String(outcome.err)}`);
  return outcome.value;
}
