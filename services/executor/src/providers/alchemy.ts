// Alchemy node API (chain.balance, chain.transaction.lookup): JSON-RPC 2.0 batches POSTed to
// https://<network slug>.g.alchemy.com/v2/<our key>. On another configured host (the sandbox, a proxy)
// the slug is the first path segment instead, since one host serves every network there. Balance:
// eth_getBalance, or alchemy_getTokenBalances + alchemy_getTokenMetadata for an ERC-20; lookup:
// eth_getTransactionByHash + eth_getTransactionReceipt. Answers are matched by id; a JSON-RPC error
// -32602/-32600 is the caller's input, any other is the node's; a null transaction is a 404.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import type { CapabilityInput, ProviderContext } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
import { addressField, formatUnits, hashField, nativeSymbol, networkOf, quantity, transactionRecord, type EvmNetwork } from "./evm";

const KEY = "alchemy";

const SLUG: Readonly<Record<EvmNetwork, string>> = {
  ethereum: "eth-mainnet",
  base: "base-mainnet",
  arbitrum: "arb-mainnet",
  optimism: "opt-mainnet",
  polygon: "polygon-mainnet",
};
const ALCHEMY_HOST = /^[a-z0-9-]+\.g\.alchemy\.com$/;

/** JSON-RPC errors that mean the request itself was wrong. */
const INPUT_ERRORS = new Set([-32600, -32602]);

function endpoint(ctx: ProviderContext, network: EvmNetwork): string {
  const key = ctx.credentials ? `/${encodeURIComponent(ctx.credentials.apiKey)}` : "";
  const base = new URL(ctx.baseUrl);
  if (ALCHEMY_HOST.test(base.hostname)) return `${base.protocol}//${SLUG[network]}.g.alchemy.com/v2${key}`;
  return `${ctx.baseUrl}/${SLUG[network]}/v2${key}`;
}

const rpc = (id: number, method: string, params: unknown[]) => ({ jsonrpc: "2.0", id, method, params });

/** A JSON-RPC batch to the input's network. */
function batch(input: CapabilityInput, ctx: ProviderContext, body: unknown[]): ProviderHttpRequest {
  return { method: "POST", url: endpoint(ctx, networkOf(KEY, input)), headers: {}, body };
}

const rpcErrorOf = (body: unknown) => (isRecord(body) && isRecord(body.error) ? body.error : undefined);

/** The batch answer's result of call `id`; a JSON-RPC error of the call is the vendor error it means. */
function batchResults(res: RailResponse): (id: number) => unknown {
  if (res.status !== 200) {
    const error = rpcErrorOf(res.body);
    throw vendorError(KEY, res, {
      ...(typeof error?.code === "number" ? { code: String(error.code) } : {}),
      ...(stringField(error, "message") ? { message: stringField(error, "message") } : {}),
    });
  }
  if (!Array.isArray(res.body)) throw invalidResponse(KEY, res, "not a JSON-RPC batch answer");
  const answers = res.body;
  return (id) => {
    const answer = answers.find((a) => isRecord(a) && a.id === id);
    if (!isRecord(answer)) throw invalidResponse(KEY, res, `without an answer to call ${id}`);
    const error = rpcErrorOf(answer);
    if (error) {
      const code = typeof error.code === "number" ? error.code : 0;
      throw vendorError(
        KEY,
        { ...res, status: INPUT_ERRORS.has(code) ? 400 : 502 },
        { code: String(code), ...(stringField(error, "message") ? { message: stringField(error, "message") } : {}) },
      );
    }
    return answer.result;
  };
}

function balance(res: RailResponse, input: CapabilityInput, network: EvmNetwork, result: (id: number) => unknown): Record<string, unknown> {
  const address = addressField(KEY, input, "address", true);
  const token = addressField(KEY, input, "tokenAddress", false);
  if (!token) {
    const raw = quantity(result(1));
    if (raw === undefined) throw invalidResponse(KEY, res, "with a balance that is not a hex quantity");
    return {
      address,
      network,
      token: null,
      symbol: nativeSymbol(network),
      decimals: 18,
      balanceRaw: raw.toString(),
      balance: formatUnits(raw, 18),
    };
  }
  const balances = result(1);
  const meta = result(2);
  const entry = isRecord(balances) && Array.isArray(balances.tokenBalances) ? balances.tokenBalances.find(isRecord) : undefined;
  const raw = quantity(entry?.tokenBalance);
  if (raw === undefined || !isRecord(meta)) throw invalidResponse(KEY, res, "without a token balance and metadata");
  // A contract that is not an ERC-20 has no decimals: report the raw amount only.
  const decimals = typeof meta.decimals === "number" ? meta.decimals : null;
  return {
    address,
    network,
    token: { address: token, name: stringField(meta, "name") ?? null },
    symbol: stringField(meta, "symbol") ?? null,
    decimals,
    balanceRaw: raw.toString(),
    balance: decimals === null ? null : formatUnits(raw, decimals),
  };
}

export const alchemyProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://eth-mainnet.g.alchemy.com" },
  capabilities: {
    "chain.balance": {
      request(input, ctx) {
        networkOf(KEY, input);
        const address = addressField(KEY, input, "address", true);
        const token = addressField(KEY, input, "tokenAddress", false);
        return batch(
          input,
          ctx,
          token
            ? [rpc(1, "alchemy_getTokenBalances", [address, [token]]), rpc(2, "alchemy_getTokenMetadata", [token])]
            : [rpc(1, "eth_getBalance", [address, "latest"])],
        );
      },
      parse(res, input) {
        const result = batchResults(res);
        return { status: "completed", data: balance(res, input, networkOf(KEY, input), result) };
      },
    },
    "chain.transaction.lookup": {
      request(input, ctx) {
        networkOf(KEY, input);
        const hash = hashField(KEY, input);
        return batch(input, ctx, [rpc(1, "eth_getTransactionByHash", [hash]), rpc(2, "eth_getTransactionReceipt", [hash])]);
      },
      parse(res, input) {
        const result = batchResults(res);
        const network = networkOf(KEY, input);
        const hash = hashField(KEY, input);
        const tx = result(1);
        if (tx === null)
          throw vendorError(
            KEY,
            { ...res, status: 404 },
            { code: "transaction_not_found", message: `no transaction ${hash} on ${network}` },
          );
        const receipt = result(2);
        if (!isRecord(tx) || (receipt !== null && !isRecord(receipt))) throw invalidResponse(KEY, res, "with a malformed transaction");
        return { status: "completed", data: transactionRecord(hash, network, tx, receipt ?? undefined) };
      },
    },
  },
});
