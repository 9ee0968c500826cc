// Etherscan API V2 (chain.transaction.lookup): GET /v2/api?chainid=<id>&module=proxy&action=
// eth_getTransactionReceipt&txhash=&apikey= (key as a query parameter on direct routes) → {jsonrpc, id,
// result: receipt | null}. One call carries the receipt only, so this route answers status, fee, block
// and logs but not the value or nonce (null): the catalog says so. Etherscan answers its errors with
// 200: {status: "0", message: "NOTOK", result: "<reason>"} (a key or rate-limit problem is ours, a
// bad argument the caller's) or a JSON-RPC error object.
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import { CHAIN_IDS, hashField, networkOf, transactionRecord } from "./evm";

const KEY = "etherscan";

/** NOTOK reasons that are about our account, not the caller's request. */
const RATE_LIMITED = /rate limit/i;
const OUR_KEY = /api key|apikey/i;

export const etherscanProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.etherscan.io" },
  capabilities: {
    "chain.transaction.lookup": {
      request(input, ctx) {
        const query = new URLSearchParams({
          chainid: String(CHAIN_IDS[networkOf(KEY, input)]),
          module: "proxy",
          action: "eth_getTransactionReceipt",
          txhash: hashField(KEY, input),
          ...ourKeyAs(ctx, "apikey"),
        });
        return { method: "GET", url: `${ctx.baseUrl}/v2/api?${query.toString()}`, headers: {} };
      },
      parse(res, input) {
        const b = res.body;
        const reason = stringField(b, "message") === "NOTOK" ? (stringField(b, "result") ?? "NOTOK") : undefined;
        if (res.status !== 200) throw vendorError(KEY, res, reason ? { code: "NOTOK", message: reason } : {});
        if (reason) {
          const status = RATE_LIMITED.test(reason) ? 429 : OUR_KEY.test(reason) ? 401 : 400;
          throw vendorError(KEY, { ...res, status }, { code: "NOTOK", message: reason });
        }
        const error = isRecord(b) && isRecord(b.error) ? b.error : undefined;
        if (error) {
          const code = typeof error.code === "number" ? error.code : 0;
          throw vendorError(
            KEY,
            { ...res, status: code === -32602 || code === -32600 ? 400 : 502 },
            { code: String(code), ...(stringField(error, "message") ? { message: stringField(error, "message") } : {}) },
          );
        }
        if (!isRecord(b) || !("result" in b)) throw invalidResponse(KEY, res, "without a result");
        const hash = hashField(KEY, input);
        const network = networkOf(KEY, input);
        if (b.result === null)
          throw vendorError(
            KEY,
            { ...res, status: 404 },
            { code: "receipt_not_found", message: `no mined transaction ${hash} on ${network} (unknown or still pending)` },
          );
        if (!isRecord(b.result)) throw invalidResponse(KEY, res, "with a malformed receipt");
        return { status: "completed", data: transactionRecord(hash, network, undefined, b.result) };
      },
    },
  },
});
