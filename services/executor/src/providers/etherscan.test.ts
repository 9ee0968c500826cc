import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { etherscanProvider } from "./etherscan";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(etherscanProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const CAP = "chain.transaction.lookup";

// Known to the sandbox's fixed ledger.
const TX_TRANSFER = "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b";
const TX_PENDING = "0x1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b";

describe("Etherscan adapter (chain.transaction.lookup)", () => {
  it("asks the V2 proxy for the receipt with the network's chain id and the apikey parameter", () => {
    const req = adapter.buildRequest(
      CAP,
      { hash: TX_TRANSFER, network: "arbitrum" },
      { baseUrl: "https://api.etherscan.io", credentials: { apiKey: "es_1" } },
    );
    expect(req.method).toBe("GET");
    const url = new URL(req.url);
    expect(url.pathname).toBe("/v2/api");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      chainid: "42161",
      module: "proxy",
      action: "eth_getTransactionReceipt",
      txhash: TX_TRANSFER,
      apikey: "es_1",
    });
  });

  it("maps its 200-status errors: NOTOK key and rate limit are ours, bad arguments the caller's", () => {
    const input = { hash: TX_TRANSFER };
    const notOk = (result: string) => () => adapter.parseResponse(CAP, response(200, { status: "0", message: "NOTOK", result }), input);
    expect(notOk("Invalid API Key (#err2)|v2")).toThrow(expect.objectContaining({ status: 401, blame: "provider" }));
    expect(notOk("Max rate limit reached")).toThrow(expect.objectContaining({ status: 429, retryable: true }));
    expect(notOk("Missing or unsupported chainid parameter")).toThrow(expect.objectContaining({ status: 400, blame: "input" }));
    expect(() =>
      adapter.parseResponse(CAP, response(200, { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad hash" } }), input),
    ).toThrow(expect.objectContaining({ status: 400, blame: "input", vendorCode: "-32602" }));
  });

  it("looks up a mined transaction's receipt through the sandbox (status, fee, logs; no value on this route)", async () => {
    const { result } = await routes.execute("etherscan", "direct", CAP, { hash: TX_TRANSFER });
    expect(result.data).toMatchObject({
      hash: TX_TRANSFER,
      network: "ethereum",
      status: "success",
      blockNumber: 21500000,
      gasUsed: "21000",
      fee: "0.000252",
      valueWei: null,
      nonce: null,
      logs: [],
    });
    expect(routes.sandbox().control.calls("etherscan")[0]?.query).toMatchObject({ chainid: "1", apikey: "etherscan-sandbox-key" });
  });

  it("answers a pending or unknown transaction as the caller's 404", async () => {
    expect(await routes.executeError("etherscan", "direct", CAP, { hash: TX_PENDING })).toMatchObject({
      status: 404,
      blame: "input",
      vendorCode: "receipt_not_found",
    });
  });
});
