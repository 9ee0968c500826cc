#!/usr/bin/env node
// Ledger admin CLI: reads the platform's books and moves credits on the record, on a running ledger
// over gRPC (admin RPCs).
//   npm run ledger -- reconcile --from 2026-11-01 [--to 2026-11-30] [--json]
//   npm run ledger -- payments --from 2026-11-01 [--to 2026-11-30] [--json]
//   npm run ledger -- credits grant|refund|adjust --user <id> --amount <credits> --reason "<text>" --reference <ref> [--by <name>] [--json]
//   npm run ledger -- usage export --user <id> [--from <time>] [--to <time>] [--kind <kind>] [--agent <name>] [--capability <key>] --format jsonl|csv
//   npm run ledger -- top-ups [--json]
//   npm run ledger -- top-ups resolve --id <top-up id> --credit|--fail --reason "<text>" [--transaction <tx>] [--by <name>] [--json]
// top-ups: the pending x402 top-ups (no evidence yet that the transfer reached us: a lost settle answer,
// or "nonce already used" on a retry); check the chain for a transfer from the payer with that nonce to
// pay_to, then resolve each once: --credit (with its --transaction) or --fail, and why.
//   npm run ledger -- backup <file>     (SQLite: an online backup of LEDGER_SQLITE_PATH while ledgers serve)
//   npm run ledger -- restore <file>    (SQLite: a backup put in place of LEDGER_SQLITE_PATH; ledgers stopped)
//   npm run ledger -- migrate [--status] (MongoDB: the schema's pending migrations, before ledgers roll out)
// reconcile: per route and UTC day, what the platform paid sellers over x402/MPP (micro-USD) against
// what it charged (credits → micro-USD), then every platform loss (paid and not charged), then the
// credits granted, refunded and adjusted per day.
// credits: RecordCreditMovement, idempotent on --reference (a retry is the same movement, once); a
// refund or an adjustment may be negative (--amount=-500) down to the available balance. --by names
// the person (default: the login name); the ledger records the admin identity beside it.
// usage export: every page of the user's usage (ListUsage with its cursor), newest first, to stdout.
// LEDGER_ADDR (host:port), default 127.0.0.1:50054. The ledger answers these RPCs to the `admin`
// identity only: ADMIN_IDENTITY_KEY (base64 PKCS#8 Ed25519 private key), else the development key
// `npm start` writes to .data/admin-identity.key.
// Exit codes: 0 done, 1 the ledger refused or could not be reached, 2 bad usage.
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { connectAdminLedger } from "./lib/admin-ledger.mjs";

const USAGE = `Usage:
  npm run ledger -- reconcile --from <YYYY-MM-DD> [--to <YYYY-MM-DD>] [--json]
  npm run ledger -- payments --from <YYYY-MM-DD> [--to <YYYY-MM-DD>] [--json]
  npm run ledger -- credits grant|refund|adjust --user <id> --amount <credits> --reason "<text>" --reference <ref> [--by <name>] [--json]
  npm run ledger -- usage export --user <id> [--from <time>] [--to <time>] [--kind <kind>] [--agent <name>] [--capability <key>] --format jsonl|csv
  npm run ledger -- top-ups [--json]
  npm run ledger -- top-ups resolve --id <top-up id> --credit|--fail --reason "<text>" [--transaction <tx>] [--by <name>] [--json]
  npm run ledger -- backup <file>
  npm run ledger -- restore <file>
  npm run ledger -- migrate [--status]
reconcile, payments: UTC days, both inclusive (--to defaults to --from), at most 366.
credits: 1000 credits = 1 USD; a negative refund or adjustment is written --amount=-500. A retry with the
  same --reference is the same movement (applied once); --by defaults to your login name.
usage export: --from (inclusive) and --to (exclusive) are RFC 3339 times or UTC days (2026-11-01 = its
  midnight); --kind is charge, grant, refund, adjustment or top_up.
top-ups: lists pending top-ups; resolve ends one, once: --credit once the transfer to pay_to is found on
  chain (give --transaction), --fail when it is not; --reason says what you checked.
backup, restore: the SQLite store's file (LEDGER_SQLITE_PATH, default ./data/ledger.sqlite), where it is; a
  backup runs while ledgers serve, a restore needs them stopped (docs/backup-and-restore.md).
migrate: the MongoDB store's numbered migrations (MONGODB_URI, MONGODB_DB as the ledger has them), run
  before ledgers roll out (they refuse to start until it has); --status says what is pending, and runs nothing
  (docs/mongodb-runbook.md).
Environment: LEDGER_ADDR=host:port (default 127.0.0.1:50054),
  ADMIN_IDENTITY_KEY=<base64 Ed25519 private key of the admin identity> (default: .data/admin-identity.key from npm start)`;
const DEADLINE_MS = 10_000;

function fail(message, code = 1) {
  process.stderr.write(`ledger: ${message}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: {
      from: { type: "string" },
      to: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      user: { type: "string" },
      amount: { type: "string" },
      reason: { type: "string" },
      reference: { type: "string" },
      by: { type: "string" },
      format: { type: "string" },
      kind: { type: "string" },
      agent: { type: "string" },
      capability: { type: "string" },
      id: { type: "string" },
      credit: { type: "boolean" },
      fail: { type: "boolean" },
      transaction: { type: "string" },
      status: { type: "boolean" },
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
if (command === "backup" || command === "restore") {
  // On the SQLite database file itself, not over gRPC (scripts/lib/ledger-backup.mjs).
  const { runBackupCommand } = await import("./lib/ledger-backup.mjs");
  process.exit(await runBackupCommand(command, rest, { fail }));
}
if (command === "migrate") {
  // On the MongoDB database itself, not over gRPC (scripts/lib/ledger-migrate.mjs).
  const { runMigrateCommand } = await import("./lib/ledger-migrate.mjs");
  process.exit(await runMigrateCommand(rest, args.values, { fail }));
}
if (!["reconcile", "payments", "credits", "usage", "top-ups"].includes(command)) fail(`unknown command "${command}"\n${USAGE}`, 2);
const MOVEMENT_KINDS = { grant: "grant", refund: "refund", adjust: "adjustment" };
const request =
  command === "credits"
    ? creditsRequest()
    : command === "usage"
      ? exportRequest()
      : command === "top-ups"
        ? topUpsRequest()
        : booksRequest();

/** reconcile, payments: a range of UTC days. */
function booksRequest() {
  if (rest.length || !args.values.from) fail(`${command} needs --from <YYYY-MM-DD>\n${USAGE}`, 2);
  return { fromDate: args.values.from, toDate: args.values.to ?? args.values.from };
}

/** The person behind an operator's action: --by, else the login name. */
function operatorName() {
  if (args.values.by !== undefined) return args.values.by;
  try {
    return userInfo().username;
  } catch {
    return "";
  }
}

/** top-ups: list the pending ones, or resolve one (ResolveTopUp); the ledger checks the rest (reason, state). */
function topUpsRequest() {
  const [verb, ...extra] = rest;
  if (verb === undefined) return { list: true };
  if (verb !== "resolve" || extra.length) fail(`top-ups takes no command but resolve\n${USAGE}`, 2);
  const { id, credit, fail: failed, reason, transaction } = args.values;
  if (!id || !reason || credit === failed) fail(`top-ups resolve needs --id, --reason and one of --credit or --fail\n${USAGE}`, 2);
  return { topUpId: id, outcome: credit ? "credit" : "fail", reason, transaction: transaction ?? "", operatorName: operatorName() };
}

/** credits grant|refund|adjust: one RecordCreditMovement request; the ledger checks the rest (reason length, balance). */
function creditsRequest() {
  const [verb, ...extra] = rest;
  const { user, amount, reason, reference } = args.values;
  if (!Object.hasOwn(MOVEMENT_KINDS, verb ?? "") || extra.length) fail(`credits needs grant, refund or adjust\n${USAGE}`, 2);
  if (!user || !amount || !reason || !reference) fail(`credits ${verb} needs --user, --amount, --reason and --reference\n${USAGE}`, 2);
  if (!/^-?\d{1,13}$/.test(amount))
    fail(`--amount must be a whole number of credits (1000 credits = 1 USD), e.g. 5000 or --amount=-500`, 2);
  return { kind: MOVEMENT_KINDS[verb], userId: user, amountCredits: Number(amount), reason, reference, operatorName: operatorName() };
}

/** A time for --from/--to: RFC 3339 with a zone, or a UTC day (its midnight). */
function parseTime(flag, value) {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T00:00:00Z`)
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value)
      ? new Date(value)
      : undefined;
  if (!at || Number.isNaN(at.getTime())) fail(`${flag} must be an RFC 3339 time (2026-11-01T00:00:00Z) or a UTC day (2026-11-01)`, 2);
  return at;
}

/** usage export: the ListUsage filters, and the output format. */
function exportRequest() {
  const { user, format, from, to, kind, agent, capability } = args.values;
  if (rest.length !== 1 || rest[0] !== "export") fail(`usage takes one command: export\n${USAGE}`, 2);
  if (!user) fail(`usage export needs --user <id>\n${USAGE}`, 2);
  if (format !== "jsonl" && format !== "csv") fail(`usage export needs --format jsonl or --format csv`, 2);
  return {
    format,
    query: {
      userId: user,
      ...(from ? { from: parseTime("--from", from) } : {}),
      ...(to ? { to: parseTime("--to", to) } : {}),
      ...(kind ? { kind } : {}),
      ...(agent ? { agentName: agent } : {}),
      ...(capability ? { capabilityKey: capability } : {}),
    },
  };
}

const { client, call } = connectAdminLedger({ deadlineMs: DEADLINE_MS, fail });

const CSV_COLUMNS = [
  "kind",
  "id",
  "createdAt",
  "amountCredits",
  "creditsCharged",
  "reference",
  "reason",
  "operator",
  "operatorName",
  "productKey",
  "capabilityKey",
  "routeKey",
  "provider",
  "networkKey",
  "status",
  "durationMs",
  "agentName",
  "errorCode",
  "traceId",
  "holdId",
  "inputTokens",
  "outputTokens",
];

/** One usage item as exported: times in ISO 8601, unset fields left out. */
function exportItem(item) {
  const out = {};
  for (const column of CSV_COLUMNS) {
    const value = column === "createdAt" ? iso(item.createdAt) : item[column];
    if (value !== undefined && value !== "") out[column] = value;
  }
  return out;
}

/** A CSV field (RFC 4180); text a spreadsheet would run as a formula (=, +, -, @ first) is prefixed with ' (agent names are the user's text). */
function csvField(value) {
  if (value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Writes to stdout, waiting while its buffer is full: an export of any size streams in constant memory. */
async function emit(line) {
  if (!process.stdout.write(`${line}\n`)) await new Promise((resolve) => process.stdout.once("drain", resolve));
}

/** usage export: follows nextCursor to the last page, writing each page as it arrives. */
async function exportUsage({ format, query }) {
  if (format === "csv") await emit(CSV_COLUMNS.join(","));
  let cursor;
  do {
    const page = await call("listUsage", { ...query, limit: 100, ...(cursor ? { cursor } : {}) });
    for (const item of page.items) {
      const row = exportItem(item);
      await emit(format === "csv" ? CSV_COLUMNS.map((c) => csvField(row[c])).join(",") : JSON.stringify(row));
    }
    cursor = page.nextCursor;
  } while (cursor);
}

const iso = (d) => (d ? new Date(d).toISOString() : "");
/** Micro-USD as dollars with all six decimals: the report is exact, so is its text. */
const usd = (micro) => `${micro < 0 ? "-" : ""}$${(Math.abs(micro) / 1e6).toFixed(6)}`;
const print = (value) => process.stdout.write(`${typeof value === "string" ? value : JSON.stringify(value, null, 2)}\n`);

if (command === "reconcile") {
  const report = await call("getReconciliation", request);
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
    print(
      `Total  paid ${usd(t.paidOutMicroUsd)}  charged ${usd(t.chargedMicroUsd)}  margin ${usd(t.marginMicroUsd)}  lost ${usd(t.lostMicroUsd)}  at risk ${usd(t.atRiskMicroUsd)}`,
    );
    print(report.losses.length ? `Platform losses (${report.losses.length}):` : "No platform losses.");
    for (const l of report.losses) {
      print(
        `  ${iso(l.createdAt)}  ${l.reason}  ${usd(l.amountMicroUsd)}  ${l.routeKey}  ${l.rail} ${l.settlement}  payment ${l.paymentId}  execution ${l.executionId || "-"}  user ${l.userId}${l.reference ? `  ref ${l.reference}` : ""}${l.errorCode ? `  ${l.errorCode}` : ""}`,
      );
    }
    print(report.creditMovements.length ? "Credits granted, refunded and adjusted:" : "No credits granted, refunded or adjusted.");
    for (const m of report.creditMovements)
      print(`  ${m.date}  ${m.kind}  ${m.movements}  +${m.addedCredits} credits  -${m.removedCredits} credits`);
  }
} else if (command === "credits") {
  const res = await call("recordCreditMovement", request);
  const e = res.entry;
  if (args.values.json) print({ replayed: res.replayed, wallet: res.wallet, entry: { ...e, createdAt: iso(e.createdAt) } });
  else {
    print(
      `${res.replayed ? "Already recorded (same reference; nothing moved again)" : "Recorded"}: ${e.kind} of ${e.amountCredits} credits for ${e.userId}, reference ${e.referenceId}, at ${iso(e.createdAt)} by ${e.operator}${e.operatorName ? ` (${e.operatorName})` : ""}: ${e.reason}`,
    );
    print(`Wallet ${res.wallet.userId}: ${res.wallet.balanceCredits} credits available, ${res.wallet.heldCredits} held.`);
  }
} else if (command === "usage") {
  await exportUsage(request);
} else if (command === "top-ups" && request.list) {
  const { topUps } = await call("listPendingTopUps", { limit: 1000 });
  if (args.values.json) print(topUps.map((t) => ({ ...t, createdAt: iso(t.createdAt), attemptedAt: iso(t.attemptedAt) })));
  else if (!topUps.length) print("No pending top-ups.");
  else {
    print(`Pending top-ups (${topUps.length}): find the transfer from payer to pay_to with the nonce on chain, then resolve each.`);
    for (const t of topUps)
      print(
        `  ${t.topUpId}  user ${t.userId}  ${t.amountCredits} credits (${t.amountAtomic} of ${t.asset} on ${t.network})  payer ${t.payer}  nonce ${t.nonce}  pay_to ${t.payTo}  since ${iso(t.createdAt)}  ${t.attempts} attempt(s), last ${iso(t.attemptedAt)}`,
      );
  }
} else if (command === "top-ups") {
  const res = await call("resolveTopUp", request);
  if (args.values.json) print(res);
  else
    print(
      `Resolved ${res.topUpId}: ${res.state}${res.creditedCredits ? `, ${res.creditedCredits} credits added` : ", nothing credited"}. Wallet ${res.wallet.userId}: ${res.wallet.balanceCredits} credits available.`,
    );
} else {
  const { payments } = await call("listOutgoingPayments", request);
  if (args.values.json) print(payments.map((p) => ({ ...p, bookedAt: iso(p.bookedAt) })));
  else if (!payments.length) print("No payments.");
  else
    for (const p of payments)
      print(
        `${iso(p.bookedAt)}  ${p.paymentId}  ${p.routeKey}  ${p.rail} ${p.network}  ${p.amountAtomic} (${usd(p.amountMicroUsd)})  ${p.settlement}  to ${p.payTo}${p.reference ? `  ref ${p.reference}` : ""}`,
      );
}
client.close();
