#!/usr/bin/env node
// Ledger admin CLI: reads the platform's books on a running ledger over gRPC (admin RPCs).
//   npm run ledger -- reconcile --from 2026-11-01 [--to 2026-11-30] [--json]
//   npm run ledger -- payments --from 2026-11-01 [--to 2026-11-30] [--json]
// reconcile: per route and UTC day, what the platform paid sellers over x402/MPP (micro-USD) against
// what it charged (credits → micro-USD), then every platform loss (paid and not charged).
// LEDGER_ADDR (host:port), default 127.0.0.1:50054. The ledger answers these RPCs to the `admin`
// identity only: ADMIN_IDENTITY_KEY (base64 PKCS#8 Ed25519 private key), else the development key
// `npm start` writes to .data/admin-identity.key.
// Exit codes: 0 done, 1 the ledger refused or could not be reached, 2 bad usage.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const USAGE = `Usage:
  npm run ledger -- reconcile --from <YYYY-MM-DD> [--to <YYYY-MM-DD>] [--json]
  npm run ledger -- payments --from <YYYY-MM-DD> [--to <YYYY-MM-DD>] [--json]
UTC days, both inclusive (--to defaults to --from), at most 366.
Environment: LEDGER_ADDR=host:port (default 127.0.0.1:50054),
  ADMIN_IDENTITY_KEY=<base64 Ed25519 private key of the admin identity> (default: .data/admin-identity.key from npm start)`;
const DEV_ADMIN_KEY_FILE = join(dirname(fileURLToPath(import.meta.url)), "..", ".data", "admin-identity.key");
const DEADLINE_MS = 10_000;

function fail(message, code = 1) {
  process.stderr.write(`ledger: ${message}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({ allowPositionals: true, options: { from: { type: "string" }, to: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
} catch (err) {
  fail(`${err.message}\n${USAGE}`, 2);
}
const [command, ...rest] = args.positionals;
if (args.values.help || !command) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(command || args.values.help ? 0 : 2);
}
if (!["reconcile", "payments"].includes(command)) fail(`unknown command "${command}"\n${USAGE}`, 2);
if (rest.length || !args.values.from) fail(`${command} needs --from <YYYY-MM-DD>\n${USAGE}`, 2);
const range = { fromDate: args.values.from, toDate: args.values.to ?? args.values.from };

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

/** Calls one RPC; resolves the response or exits with a readable error. */
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
/** Micro-USD as dollars with all six decimals: the report is exact, so is its text. */
const usd = (micro) => `${micro < 0 ? "-" : ""}$${(Math.abs(micro) / 1e6).toFixed(6)}`;
const print = (value) => process.stdout.write(`${typeof value === "string" ? value : JSON.stringify(value, null, 2)}\n`);

if (command === "reconcile") {
  const report = await call("getReconciliation", range);
  if (args.values.json) {
    print({ ...report, losses: report.losses.map((l) => ({ ...l, createdAt: iso(l.createdAt) })) });
  } else {
    print(`Reconciliation ${report.fromDate} .. ${report.toDate} (UTC)`);
    if (!report.rows.length) print("No payments or charges.");
    for (const r of report.rows) {
      print(
        `${r.date}  ${r.routeKey}  paid ${usd(r.paidOutMicroUsd)} (${r.payments})  charged ${usd(r.chargedMicroUsd)} (${r.chargedCredits} credits, ${r.captures})  margin ${usd(r.marginMicroUsd)}` +
          `${r.lostMicroUsd ? `  lost ${usd(r.lostMicroUsd)}` : ""}${r.atRiskMicroUsd ? `  at risk ${usd(r.atRiskMicroUsd)}` : ""}`,
      );
    }
    const t = report.totals;
    print(`Total  paid ${usd(t.paidOutMicroUsd)}  charged ${usd(t.chargedMicroUsd)}  margin ${usd(t.marginMicroUsd)}  lost ${usd(t.lostMicroUsd)}  at risk ${usd(t.atRiskMicroUsd)}`);
    print(report.losses.length ? `Platform losses (${report.losses.length}):` : "No platform losses.");
    for (const l of report.losses) {
      print(`  ${iso(l.createdAt)}  ${l.reason}  ${usd(l.amountMicroUsd)}  ${l.routeKey}  ${l.rail} ${l.settlement}  payment ${l.paymentId}  execution ${l.executionId || "-"}  user ${l.userId}${l.reference ? `  ref ${l.reference}` : ""}${l.errorCode ? `  ${l.errorCode}` : ""}`);
    }
  }
} else {
  const { payments } = await call("listOutgoingPayments", range);
  if (args.values.json) print(payments.map((p) => ({ ...p, bookedAt: iso(p.bookedAt) })));
  else if (!payments.length) print("No payments.");
  else for (const p of payments) print(`${iso(p.bookedAt)}  ${p.paymentId}  ${p.routeKey}  ${p.rail} ${p.network}  ${p.amountAtomic} (${usd(p.amountMicroUsd)})  ${p.settlement}  to ${p.payTo}${p.reference ? `  ref ${p.reference}` : ""}`);
}
client.close();
