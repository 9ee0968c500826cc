// Starts the sandbox on a loopback port (0 = any free port) for tests and `npm start`.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generatePrivateKey } from "viem/accounts";
import { createSandbox, SANDBOX_API_KEYS, type SandboxOptions } from "./app";
import { SANDBOX_NETWORK } from "./payments/assets";
import type { SandboxControl } from "./control/sandbox-control";
import { AYRSHARE_PRIVATE_KEY, AYRSHARE_PROFILE_DOMAIN } from "./vendors/ayrshare";

export interface RunningSandbox {
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  control: SandboxControl;
  /** Base URL of each provider stand-in per network, in the form its adapter expects (see providerBaseUrls). */
  baseUrls: Record<string, Record<SandboxNetwork, string>>;
  /** Closes every connection (including ones a `timeout` fault holds open) and the server. */
  stop(): Promise<void>;
}

/** Route networks (the catalog's networkKey) and the sandbox mount serving each. */
const MOUNTS = { direct: "", agentcash: "/x402", mpp: "/mpp" } as const;
export type SandboxNetwork = keyof typeof MOUNTS;

/**
 * Base URL of every provider stand-in per network, in the form the executor's adapters take: the
 * vendor's origin, except OpenAI whose base URL conventionally includes the version (`.../v1`).
 */
export function providerBaseUrls(url: string, providers: readonly string[]): Record<string, Record<SandboxNetwork, string>> {
  return Object.fromEntries(
    providers.map((p) => [
      p,
      Object.fromEntries(
        (Object.entries(MOUNTS) as Array<[SandboxNetwork, string]>).map(([network, mount]) => [
          network,
          `${url}${mount}/${p}${p === "openai" ? "/v1" : ""}`,
        ]),
      ) as Record<SandboxNetwork, string>,
    ]),
  );
}

/**
 * The environment an executor needs to use a sandbox at `url` (for `npm start` and e2e harnesses):
 * `<PROVIDER>_BASE_URL` (direct), `<PROVIDER>_AGENTCASH_BASE_URL` and `<PROVIDER>_MPP_BASE_URL` of every
 * provider, the `<PROVIDER>_API_KEY`s the direct mounts accept, a fresh wallet key for
 * x402 and MPP on the sandbox network (the sandbox funds every new payer), and a default sender.
 */
export function sandboxExecutorEnv(url: string, providers: readonly string[]): Record<string, string> {
  const wallet = generatePrivateKey();
  return {
    ...Object.fromEntries(
      Object.entries(providerBaseUrls(url, providers)).flatMap(([p, bases]) => [
        [`${p.toUpperCase()}_BASE_URL`, bases.direct],
        [`${p.toUpperCase()}_AGENTCASH_BASE_URL`, bases.agentcash],
        [`${p.toUpperCase()}_MPP_BASE_URL`, bases.mpp],
      ]),
    ),
    ...Object.fromEntries(Object.entries(SANDBOX_API_KEYS).map(([p, key]) => [`${p.toUpperCase()}_API_KEY`, key])),
    X402_WALLET_PRIVATE_KEY: wallet,
    X402_NETWORKS: SANDBOX_NETWORK,
    MPP_WALLET_PRIVATE_KEY: wallet,
    MPP_NETWORKS: SANDBOX_NETWORK,
    EMAIL_DEFAULT_FROM: "Agentic Sandbox <noreply@agentic.test>",
    AYRSHARE_PROFILE_DOMAIN,
    AYRSHARE_PRIVATE_KEY,
  };
}

export async function startSandbox(opts: SandboxOptions & { port?: number; host?: string } = {}): Promise<RunningSandbox> {
  const host = opts.host ?? "127.0.0.1";
  const sandbox = createSandbox(opts);
  const server = createServer(sandbox.app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  return {
    url,
    control: sandbox.control,
    baseUrls: providerBaseUrls(url, sandbox.control.providers),
    stop: async () => {
      sandbox.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
