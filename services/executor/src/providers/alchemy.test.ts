import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { alchemyProvider } from "./alchemy";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(alchemyProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

// Known to the sandbox's fixed ledger.
const WALLET = "0xd8dA6BF26964aF9D7eEd9e10E8d5f3D1b2C4a001";
const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const TX_TOKEN = "0x2b8e1a3c6f4d5e7a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a";
const TX_FAILED = "0x9f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b";
const TX_PENDING = "0x1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b";
const UNKNOWN_TX = `0x${"ab".repeat(32)}`;

describe("Alchemy adapter (chain.balance, chain.transaction.lookup)", () => {
  it("posts a JSON-RPC batch to the network's host with our key in the path", () => {
    const ctx = { baseUrl: "https://eth-mainnet.g.alchemy.com", credentials: { apiKey: "alc_1" } };
    expect(adapter.buildRequest("chain.balance", { address: WALLET, network: "base" }, ctx)).toEqual({
      method: "POST",
      url: "https://base-mainnet.g.alchemy.com/v2/alc_1",
      headers: {},
      body: [{ jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [WALLET.toLowerCase(), "latest"] }],
    });
    expect(adapter.buildRequest("chain.balance", { address: WALLET, tokenAddress: USDC }, ctx).body).toEqual([
      { jsonrpc: "2.0", id: 1, method: "alchemy_getTokenBalances", params: [WALLET.toLowerCase(), [USDC.toLowerCase()]] },
      { jsonrpc: "2.0", id: 2, method: "alchemy_getTokenMetadata", params: [USDC.toLowerCase()] },
    ]);
    const lookup = adapter.buildRequest(
      "chain.transaction.lookup",
      { hash: TX_TOKEN },
      { baseUrl: "http://127.0.0.1:1/alchemy", credentials: { apiKey: "k" } },
    );
    expect(lookup.url).toBe("http://127.0.0.1:1/alchemy/eth-mainnet/v2/k");
    expect((lookup.body as Array<{ method: string }>).map((c) => c.method)).toEqual([
      "eth_getTransactionByHash",
      "eth_getTransactionReceipt",
    ]);
  });

  it("refuses a malformed address, hash or network by field before any call", () => {
    const ctx = { baseUrl: "https://x" };
    expect(() => adapter.buildRequest("chain.balance", { address: "0x12" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "address" }),
    );
    expect(() => adapter.buildRequest("chain.balance", { address: WALLET, network: "solana" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "network" }),
    );
    expect(() => adapter.buildRequest("chain.transaction.lookup", { hash: "0xabc" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "hash" }),
    );
  });

  it("maps JSON-RPC errors: invalid params are the caller's, others the node's; 401 and 429 are ours", () => {
    const input = { address: WALLET };
    const batch = (error: unknown) => response(200, [{ jsonrpc: "2.0", id: 1, error }]);
    expect(() => adapter.parseResponse("chain.balance", batch({ code: -32602, message: "invalid argument" }), input)).toThrow(
      expect.objectContaining({ status: 400, blame: "input", vendorCode: "-32602" }),
    );
    expect(() => adapter.parseResponse("chain.balance", batch({ code: -32603, message: "internal" }), input)).toThrow(
      expect.objectContaining({ kind: "http_5xx", retryable: true }),
    );
    expect(() =>
      adapter.parseResponse(
        "chain.balance",
        response(429, { jsonrpc: "2.0", id: null, error: { code: 429, message: "compute units exceeded" } }),
        input,
      ),
    ).toThrow(expect.objectContaining({ retryable: true, blame: "provider" }));
    expect(() => adapter.parseResponse("chain.balance", response(200, { jsonrpc: "2.0", id: 1, result: "0x1" }), input)).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("reads a native and an ERC-20 balance through the sandbox", async () => {
    const native = await routes.execute("alchemy", "direct", "chain.balance", { address: WALLET });
    expect(native.result.data).toEqual({
      address: WALLET.toLowerCase(),
      network: "ethereum",
      token: null,
      symbol: "ETH",
      decimals: 18,
      balanceRaw: "1234500000000000000",
      balance: "1.2345",
    });
    const usdc = await routes.execute("alchemy", "direct", "chain.balance", { address: WALLET, tokenAddress: USDC, network: "base" });
    expect(usdc.result.data).toMatchObject({ symbol: "USDC", decimals: 6, balanceRaw: "2500750000", balance: "2500.75", network: "base" });
    expect(
      routes
        .sandbox()
        .control.calls("alchemy")
        .map((c) => c.path),
    ).toEqual(["/eth-mainnet/v2/alchemy-sandbox-key", "/base-mainnet/v2/alchemy-sandbox-key"]);
  });

  it("looks up a mined, a failed and a pending transaction through the sandbox; an unknown hash is the caller's 404", async () => {
    const mined = await routes.execute("alchemy", "direct", "chain.transaction.lookup", { hash: TX_TOKEN });
    expect(mined.result.data).toMatchObject({
      hash: TX_TOKEN,
      status: "success",
      blockNumber: 21500000,
      valueWei: "0",
      gasUsed: "51234",
      feeWei: String(51234n * 12_000_000_000n),
      logs: [{ address: USDC.toLowerCase(), logIndex: 0 }],
    });
    expect((await routes.execute("alchemy", "direct", "chain.transaction.lookup", { hash: TX_FAILED })).result.data).toMatchObject({
      status: "failed",
    });
    expect((await routes.execute("alchemy", "direct", "chain.transaction.lookup", { hash: TX_PENDING })).result.data).toMatchObject({
      status: "pending",
      blockNumber: null,
      value: "0.01",
      fee: null,
    });
    expect(await routes.executeError("alchemy", "direct", "chain.transaction.lookup", { hash: UNKNOWN_TX })).toMatchObject({
      status: 404,
      blame: "input",
      vendorCode: "transaction_not_found",
    });
  });

  it("maps the sandbox's refusal of a wrong key to a provider error", async () => {
    const provider = routes.registry().get("alchemy", "direct");
    const req = provider!.adapter.buildRequest(
      "chain.balance",
      { address: WALLET },
      { ...provider!.ctx, credentials: { apiKey: "wrong" } },
    );
    const res = await fetch(req.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(req.body) });
    const answer: RailResponse = { status: res.status, headers: {}, body: await res.json() };
    expect(() => adapter.parseResponse("chain.balance", answer, { address: WALLET })).toThrow(
      expect.objectContaining({ status: 401, blame: "provider", vendorCode: "-32600" }),
    );
  });
});
