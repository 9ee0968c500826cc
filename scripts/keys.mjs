#!/usr/bin/env node
// API key CLI: creates, lists and revokes keys on a running ledger over gRPC (createLedgerClient
// from @agentic/clients; errors read with fromServiceError from @agentic/platform).
//   npm run keys -- create --user <userId> [--name <label>] [--json]
//   npm run keys -- list [--user <userId>] [--json]
//   npm run keys -- revoke <keyId> [--json]
// LEDGER_ADDR (host:port) says where the ledger listens; default 127.0.0.1:50054 (`npm start`).
// The ledger lets only the `admin` identity manage keys: ADMIN_IDENTITY_KEY (base64 PKCS#8 Ed25519
// private key, whose public key the ledger lists as admin= in TRUSTED_SERVICE_KEYS), else the
// development key that `npm start` writes to .data/admin-identity.key at every start.
// Exit codes: 0 done, 1 the ledger refused or could not be reached, 2 bad usage.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const USAGE = `Usage:
  npm run keys -- create --user <userId> [--name <label>] [--json]
  npm run keys -- list [--user <userId>] [--json]
  npm run keys -- revoke <keyId> [--json]
Environment: LEDGER_ADDR=host:port (default 127.0.0.1:50054),
  ADMIN_IDENTITY_KEY=<base64 Ed25519 private key of the admin identity> (default: .data/admin-identity.key from npm start)`;
const DEV_ADMIN_KEY_FILE = join(dirname(fileURLToPath(import.meta.url)), "..", ".data", "admin-identity.key");
const DEADLINE_MS = 5_000;

function fail(message, code = 1) {
  process.stderr.write(`keys: ${message}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: { user: { type: "string" }, name: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
} catch (err) {
  fail(`${err.message}\n${USAGE}`, 2);
}
const [command, ...rest] = args.positionals;
if (args.values.help || !command) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(command || args.values.help ? 0 : 2);
}

let createLedgerClient, fromServiceError, serviceIdentity, grpcStatus;
try {
  ({ createLedgerClient } = require("@agentic/clients"));
  ({ fromServiceError, serviceIdentity } = require("@agentic/platform"));
  ({ status: grpcStatus } = require("@grpc/grpc-js"));
} catch (err) {
  fail(`cannot load the ledger client (${err.code ?? err.message}); run \`npm install\` and \`npm run build\` first`);
}

const address = process.env.LEDGER_ADDR || "127.0.0.1:50054";
const adminKey = process.env.ADMIN_IDENTITY_KEY || (existsSync(DEV_ADMIN_KEY_FILE) ? readFileSync(DEV_ADMIN_KEY_FILE, "utf8").trim() : "");
if (!adminKey) fail("no admin identity: set ADMIN_IDENTITY_KEY (the admin's private key), or run `npm start`, which writes a development one to .data/admin-identity.key");
let admin;
try {
  admin = serviceIdentity("admin", adminKey);
} catch {
  fail("ADMIN_IDENTITY_KEY is not an Ed25519 private key (base64 of its PKCS#8 DER)");
}
const client = createLedgerClient(address, DEADLINE_MS, admin);

/** Calls one RPC of the ledger client; resolves the response or exits with a readable error. */
async function call(method, request) {
  try {
    return await client[method](request);
  } catch (err) {
    client.close();
    const remote = fromServiceError(err);
    if (remote.grpcCode === grpcStatus.UNAVAILABLE || remote.grpcCode === grpcStatus.DEADLINE_EXCEEDED) {
      fail(`the ledger is not reachable at ${address} (${grpcStatus[remote.grpcCode]}). Start it (\`npm start\`) or set LEDGER_ADDR=host:port.`);
    }
    fail(`${remote.code}: ${remote.message}${remote.hint ? `\n  hint: ${remote.hint}` : ""}`);
  }
}

const iso = (d) => (d ? new Date(d).toISOString() : "");
const info = (k) => ({ keyId: k.keyId, userId: k.userId, prefix: k.prefix, name: k.name, createdAt: iso(k.createdAt), revokedAt: iso(k.revokedAt) || undefined });
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
    else for (const k of keys) print(`${k.keyId}  ${k.prefix}...  user=${k.userId}  created=${k.createdAt}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ""}${k.name ? `  ${k.name}` : ""}`);
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
