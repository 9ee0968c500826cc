#!/usr/bin/env node
// API key CLI: creates, lists and revokes keys, and sets their request limits, on a running ledger
// over gRPC (createLedgerClient from @agentic/clients; errors read with fromServiceError from @agentic/platform).
//   npm run keys -- create --user <userId> [--name <label>] [--json]
//   npm run keys -- list [--user <userId>] [--json]
//   npm run keys -- revoke <keyId> [--json]
//   npm run keys -- limits --key <keyId> [--rps N] [--burst N] [--in-flight N] [--clear] [--json]
// LEDGER_ADDR (host:port) says where the ledger listens; default 127.0.0.1:50054 (`npm start`).
// The ledger lets only the `admin` identity manage keys: ADMIN_IDENTITY_KEY (base64 PKCS#8 Ed25519
// private key, whose public key the ledger lists as admin= in TRUSTED_SERVICE_KEYS), else the
// development key that `npm start` writes to .data/admin-identity.key at every start.
// Exit codes: 0 done, 1 the ledger refused or could not be reached, 2 bad usage.
import { parseArgs } from "node:util";
import { connectAdminLedger } from "./lib/admin-ledger.mjs";

const USAGE = `Usage:
  npm run keys -- create --user <userId> [--name <label>] [--json]
  npm run keys -- list [--user <userId>] [--json]
  npm run keys -- revoke <keyId> [--json]
  npm run keys -- limits --key <keyId> [--rps N] [--burst N] [--in-flight N] [--clear] [--json]
    Without --rps/--burst/--in-flight/--clear: shows the key's limits. With any of them: the key gets
    exactly those (a limit left out is the gateway's default); --clear gives it the defaults again.
    Gateways apply a change within 5 s, when their cached answer for the key expires.
Environment: LEDGER_ADDR=host:port (default 127.0.0.1:50054),
  ADMIN_IDENTITY_KEY=<base64 Ed25519 private key of the admin identity> (default: .data/admin-identity.key from npm start)`;
const DEADLINE_MS = 5_000;

function fail(message, code = 1) {
  process.stderr.write(`keys: ${message}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: {
      user: { type: "string" },
      name: { type: "string" },
      key: { type: "string" },
      rps: { type: "string" },
      burst: { type: "string" },
      "in-flight": { type: "string" },
      clear: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
} catch (err) {
  fail(`${err.message}\n${USAGE}`, 2);
}
const [command, ...rest] = args.positionals;
if (args.values.help || !command) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(command || args.values.help ? 0 : 2);
}

const { client, call } = connectAdminLedger({ deadlineMs: DEADLINE_MS, fail });

const iso = (d) => (d ? new Date(d).toISOString() : "");
const info = (k) => ({
  keyId: k.keyId,
  userId: k.userId,
  prefix: k.prefix,
  name: k.name,
  createdAt: iso(k.createdAt),
  revokedAt: iso(k.revokedAt) || undefined,
  limits: k.limits
    ? { requestsPerSecond: k.limits.requestsPerSecond, burst: k.limits.burst, maxInFlight: k.limits.maxInFlight }
    : undefined,
});
/** "5 requests/s, burst 10, in flight default", or "the gateway's defaults". */
const describeLimits = (l) =>
  l
    ? [`${l.requestsPerSecond ?? "default"} requests/s`, `burst ${l.burst ?? "default"}`, `in flight ${l.maxInFlight ?? "default"}`].join(
        ", ",
      )
    : "the gateway's defaults";
/** A limit flag's value: a whole number (the ledger checks its range), or a usage error. */
function count(flag) {
  const value = args.values[flag];
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) fail(`--${flag} needs a whole number, got "${value}"\n${USAGE}`, 2);
  return Number(value);
}
const print = (value) => process.stdout.write(`${typeof value === "string" ? value : JSON.stringify(value, null, 2)}\n`);

switch (command) {
  case "create": {
    if (!args.values.user || rest.length) fail(`create needs --user <userId>\n${USAGE}`, 2);
    const res = await call("createApiKey", { userId: args.values.user, name: args.values.name ?? "" });
    if (args.values.json) print({ apiKey: res.apiKey, ...info(res.key) });
    else {
      print(`Created key ${res.key.keyId} for user ${res.key.userId}${res.key.name ? ` (${res.key.name})` : ""}:\n`);
      print(`  ${res.apiKey}\n`);
      print("This is the only time the key is shown; the ledger keeps only its hash. Use it as `Authorization: Bearer <key>`.");
    }
    break;
  }
  case "list": {
    if (rest.length) fail(`list takes no positional arguments\n${USAGE}`, 2);
    const res = await call("listApiKeys", { userId: args.values.user ?? "" });
    const keys = res.keys.map(info);
    if (args.values.json) print(keys);
    else if (!keys.length) print("No keys.");
    else
      for (const k of keys)
        print(
          `${k.keyId}  ${k.prefix}...  user=${k.userId}  created=${k.createdAt}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ""}${k.limits ? `  limits: ${describeLimits(k.limits)}` : ""}${k.name ? `  ${k.name}` : ""}`,
        );
    break;
  }
  case "limits": {
    const keyId = args.values.key;
    if (!keyId || rest.length) fail(`limits needs --key <keyId> (key_...; see \`npm run keys -- list\`)\n${USAGE}`, 2);
    const limits = { requestsPerSecond: count("rps"), burst: count("burst"), maxInFlight: count("in-flight") };
    const setting = Object.values(limits).some((v) => v !== undefined);
    if (setting && args.values.clear) fail(`limits takes --clear or limits to set, not both\n${USAGE}`, 2);
    let key;
    if (setting || args.values.clear) {
      // An empty limits message clears them.
      key = (await call("setApiKeyLimits", { keyId, limits: args.values.clear ? {} : limits })).key;
    } else {
      // No RPC reads one key: the admin's list of every key has it.
      key = (await call("listApiKeys", { userId: "" })).keys.find((k) => k.keyId === keyId);
      if (!key) fail(`API_KEY_NOT_FOUND: no key ${keyId}`);
    }
    if (args.values.json) print(info(key));
    else print(`${key.keyId} (${key.prefix}..., user ${key.userId}): ${describeLimits(key.limits)}`);
    break;
  }
  case "revoke": {
    if (rest.length !== 1) fail(`revoke needs exactly one key id (key_...; see \`npm run keys -- list\`)\n${USAGE}`, 2);
    const res = await call("revokeApiKey", { keyId: rest[0] });
    if (args.values.json) print(info(res.key));
    else print(`Revoked ${res.key.keyId} (${res.key.prefix}..., user ${res.key.userId}) at ${iso(res.key.revokedAt)}.`);
    break;
  }
  default:
    fail(`unknown command "${command}"\n${USAGE}`, 2);
}
client.close();
