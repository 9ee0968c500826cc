// Etherscan API V2 stand-in (`apikey` query parameter): GET /v2/api?chainid=&module=proxy&action=
// eth_getTransactionReceipt|eth_getTransactionByHash&txhash= → {jsonrpc, id, result} (the node's
// objects, from the fixed ledger of evm-chain.ts). Like Etherscan it answers its own errors with 200:
// {status: "0", message: "NOTOK", result: "<reason>"} for a bad key or chain id, and a JSON-RPC error
// object for bad proxy arguments.
import type { SandboxVendor, VendorDefinition, VendorOptions, VendorReply, VendorRequest } from "../http/vendor";
import { CHAIN_IDS, HASH, receipt, transaction } from "./evm-chain";

const notOk = (result: string, status = 200): VendorReply => ({ status, body: { status: "0", message: "NOTOK", result } });
const SUPPORTED_CHAINS = new Set(Object.values(CHAIN_IDS).map(String));

export function etherscanVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "etherscan",
    price: { amountAtomic: priceAtomic, description: "Etherscan API call" },
    authenticate: (req) => (req.query.apikey === apiKey ? undefined : notOk("Invalid API Key (#err2)|v2")),
    errorReply: (status, message) => notOk(message, status),
    routes: [{ method: "GET", path: "/v2/api", handle: api }],
  };
}

function api(req: VendorRequest): VendorReply {
  const q = req.query;
  if (!q.chainid || !SUPPORTED_CHAINS.has(q.chainid))
    return notOk(
      "Missing or unsupported chainid parameter (required for v2 api), please see https://api.etherscan.io/v2/chainlist for the list of supported chainids",
    );
  if (q.module !== "proxy") return notOk("Error! Missing Or invalid Module name");
  if (q.action !== "eth_getTransactionReceipt" && q.action !== "eth_getTransactionByHash")
    return notOk("Error! Missing Or invalid Action name");
  const hash = q.txhash ?? "";
  if (!HASH.test(hash))
    return {
      status: 200,
      body: {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32602,
          message: `invalid argument 0: hex string has length ${Math.max(hash.length - 2, 0)}, want 64 for common.Hash`,
        },
      },
    };
  return {
    status: 200,
    body: { jsonrpc: "2.0", id: 1, result: q.action === "eth_getTransactionReceipt" ? receipt(hash) : transaction(hash) },
  };
}

export const etherscanSandbox = {
  key: "etherscan",
  apiKey: "etherscan-sandbox-key",
  priceAtomic: "1000",
  create: etherscanVendor,
} as const satisfies SandboxVendor;
