// Alchemy node API stand-in: JSON-RPC 2.0 (single or batch) at POST /<network slug>/v2/<api key> (the real
// API serves each network on its own host, https://<slug>.g.alchemy.com/v2/<key>; here the slug is the
// first path segment). Methods: eth_getBalance, eth_getTransactionByHash, eth_getTransactionReceipt,
// alchemy_getTokenBalances, alchemy_getTokenMetadata, answered from the fixed ledger of evm-chain.ts.
// Per-call errors are JSON-RPC error objects; a bad key is 401 {jsonrpc, id, error}.
import {
  isObject,
  type SandboxVendor,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";
import { ADDRESS, HASH, TOKEN_METADATA, nativeBalance, receipt, tokenBalance, transaction } from "./evm-chain";

const SLUGS = new Set(["eth-mainnet", "base-mainnet", "arb-mainnet", "opt-mainnet", "polygon-mainnet"]);

const rpcError = (status: number, code: number, message: string): VendorReply => ({
  status,
  body: { jsonrpc: "2.0", id: null, error: { code, message } },
});

export function alchemyVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "alchemy",
    price: { amountAtomic: priceAtomic, description: "Alchemy node API call" },
    authenticate: (req) => (req.params.apiKey === apiKey ? undefined : rpcError(401, -32600, "Must be authenticated!")),
    errorReply: (status, message) => rpcError(status, status === 429 ? 429 : -32603, message),
    routes: [
      { method: "POST", path: "/:network/v2/:apiKey", handle: rpc },
      // The paid mounts take no key in the path.
      { method: "POST", path: "/:network/v2", handle: rpc },
    ],
  };
}

function rpc(req: VendorRequest): VendorReply {
  if (!SLUGS.has(req.params.network ?? "")) return rpcError(404, -32600, `Unknown network ${req.params.network}`);
  const b = req.body;
  if (Array.isArray(b)) {
    if (b.length === 0) return rpcError(400, -32600, "empty batch");
    return { status: 200, body: b.map(call) };
  }
  return { status: 200, body: call(b) };
}

function call(item: unknown): Record<string, unknown> {
  if (!isObject(item) || item.jsonrpc !== "2.0" || typeof item.method !== "string")
    return { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request" } };
  const id = item.id ?? null;
  const params = Array.isArray(item.params) ? item.params : [];
  const ok = (result: unknown) => ({ jsonrpc: "2.0", id, result });
  const invalid = (message: string) => ({ jsonrpc: "2.0", id, error: { code: -32602, message } });
  const [first, second] = params as unknown[];
  switch (item.method) {
    case "eth_getBalance":
      if (typeof first !== "string" || !ADDRESS.test(first))
        return invalid("invalid 1st argument: address value was not valid hexadecimal");
      return ok(nativeBalance(first));
    case "eth_getTransactionByHash":
    case "eth_getTransactionReceipt":
      if (typeof first !== "string" || !HASH.test(first))
        return invalid("invalid argument 0: hex string has length " + String(first).length + ", want 64 for common.Hash");
      return ok(item.method === "eth_getTransactionByHash" ? transaction(first) : receipt(first));
    case "alchemy_getTokenBalances": {
      if (typeof first !== "string" || !ADDRESS.test(first))
        return invalid("invalid 1st argument: address value was not valid hexadecimal");
      const tokens = Array.isArray(second) ? second : [];
      if (tokens.some((t) => typeof t !== "string" || !ADDRESS.test(t)))
        return invalid("invalid 2nd argument: contract address was not valid hexadecimal");
      return ok({
        address: first.toLowerCase(),
        tokenBalances: tokens.map((t: string) => ({ contractAddress: t.toLowerCase(), tokenBalance: tokenBalance(t, first), error: null })),
      });
    }
    case "alchemy_getTokenMetadata":
      if (typeof first !== "string" || !ADDRESS.test(first))
        return invalid("invalid 1st argument: contract address was not valid hexadecimal");
      return ok(TOKEN_METADATA[first.toLowerCase()] ?? { name: null, symbol: null, decimals: null, logo: null });
    default:
      return {
        jsonrpc: "2.0",
        id,
        error: {
          code: -32601,
          message: `Unsupported method: ${item.method}. See available methods at https://docs.alchemy.com/alchemy/documentation/apis`,
        },
      };
  }
}

export const alchemySandbox = {
  key: "alchemy",
  apiKey: "alchemy-sandbox-key",
  priceAtomic: "1000",
  create: alchemyVendor,
} as const satisfies SandboxVendor;
