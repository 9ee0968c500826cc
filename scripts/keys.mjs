#!/usr/bin/env node
// API key CLI: creates, lists and revokes keys, and sets their request limits and spend policies, on a running ledger
// over gRPC (createLedgerClient from @agentic/clients; errors read with fromServiceError from @agentic/platform).
//   npm run keys -- create --user <userId> [--name <label>] [--agent <name> | --agents <name,name...>] [--json]
//   npm run keys -- list [--user <userId>] [--json]
//   npm run keys -- revoke <keyId> [--json]
//   npm run keys -- limits --key <keyId> [--rps N] [--burst N] [--in-flight N] [--clear] [--json]
//   npm run keys -- policy --key <keyId> [--agent <name> | --other-agents] [--budget N --reset daily|weekly|monthly|none]
//                          [--capability <key> [--cap-credits N] [--cap-count N]]... [--max-price N] [--clear] [--json]
// LEDGER_ADDR (host:port) says where the ledger listens; default 127.0.0.1:50054 (`npm start`).
// The ledger lets only the `admin` identity manage keys: ADMIN_IDENTITY_KEY (base64 PKCS#8 Ed25519
// private key, whose public key the ledger lists as admin= in TRUSTED_SERVICE_KEYS), else the
// development key that `npm start` writes to .data/admin-identity.key at every start.
// Exit codes: 0 done, 1 the ledger refused or could not be reached, 2 bad usage.
import { parseArgs } from "node:util";
import { connectAdminLedger } from "./lib/admin-ledger.mjs";

const USAGE = `Usage:
  npm run keys -- create --user <userId> [--name <label>] [--agent <name> | --agents <name,name...>] [--json]
    --agent: the key is issued for one agent: every request it makes is that agent's (no Agent-Name means it, another name
    is refused), so the agent's spend policy binds it whatever it sends. --agents: every request must name one of these
    agents in Agent-Name (anything else, or none, is refused). Names compare normalized (case, width, invisible characters).
  npm run keys -- list [--user <userId>] [--json]
  npm run keys -- revoke <keyId> [--json]
  npm run keys -- limits --key <keyId> [--rps N] [--burst N] [--in-flight N] [--clear] [--json]
    Without --rps/--burst/--in-flight/--clear: shows the key's limits. With any of them: the key gets
    exactly those (a limit left out is the gateway's default); --clear gives it the defaults again.
    Gateways apply a change within 5 s, when their cached answer for the key expires.
  npm run keys -- policy --key <keyId> [--agent <name> | --other-agents] [--budget N --reset daily|weekly|monthly|none]
                         [--capability <key> [--cap-credits N] [--cap-count N]]... [--max-price N] [--clear] [--json]
    Without limits or --clear: shows the key's spend policies (the key's own and its agents'), what each spent this period and when it resets.
    With limits: the key's policy (or with --agent, that agent's under the key; with --other-agents, the default agent policy:
    every agent of the key without a policy of its own, none named included, counted together) becomes exactly those. --budget: credits per period
    (held + captured); --reset: the period, calendar periods in UTC (daily from 00:00, weekly from Monday, monthly from the 1st), none for a
    one-off allowance; --capability caps one capability per period (repeat it, each followed by its own --cap-credits and/or --cap-count);
    --max-price: most credits one execution may cost. --clear removes the policy. The next hold on every ledger applies a change.
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
      agent: { type: "string" },
      agents: { type: "string" },
      "other-agents": { type: "boolean" },
      budget: { type: "string" },
      reset: { type: "string" },
      capability: { type: "string", multiple: true },
      "cap-credits": { type: "string", multiple: true },
      "cap-count": { type: "string", multiple: true },
      "max-price": { type: "string" },
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
  agentName: k.agentName,
  agentNames: k.agentNames?.names.length ? k.agentNames.names : undefined,
  limits: k.limits
    ? { requestsPerSecond: k.limits.requestsPerSecond, burst: k.limits.burst, maxInFlight: k.limits.maxInFlight }
    : undefined,
});
/** ", issued for agent alpha", ", requiring one of the agents alpha, beta", or "". */
const describeAgents = (k) =>
  k.agentName !== undefined
    ? `, issued for agent ${k.agentName}`
    : k.agentNames?.names.length
      ? `, requiring one of the agents ${k.agentNames.names.join(", ")}`
      : "";
/** "5 requests/s, burst 10, in flight default", or "the gateway's defaults". */
const describeLimits = (l) =>
  l
    ? [`${l.requestsPerSecond ?? "default"} requests/s`, `burst ${l.burst ?? "default"}`, `in flight ${l.maxInFlight ?? "default"}`].join(
        ", ",
      )
    : "the gateway's defaults";
/** A limit flag's value: a whole number (the ledger checks its range), or a usage error. */
function whole(flag, value) {
  if (!/^\d+$/.test(value)) fail(`--${flag} needs a whole number, got "${value}"\n${USAGE}`, 2);
  return Number(value);
}
/** A single-valued limit flag: undefined when absent, else whole(). */
function count(flag) {
  const value = args.values[flag];
  return value === undefined ? undefined : whole(flag, value);
}
/** The --capability caps: each --capability with the --cap-credits/--cap-count at its position (all or none of each). */
function capabilityCaps() {
  const keys = args.values.capability ?? [];
  const credits = args.values["cap-credits"] ?? [];
  const counts = args.values["cap-count"] ?? [];
  if ((credits.length && credits.length !== keys.length) || (counts.length && counts.length !== keys.length))
    fail(`give each --capability its own --cap-credits and/or --cap-count\n${USAGE}`, 2);
  return keys.map((capabilityKey, i) => ({
    capabilityKey,
    maxCredits: credits[i] !== undefined ? whole("cap-credits", credits[i]) : undefined,
    maxCount: counts[i] !== undefined ? whole("cap-count", counts[i]) : undefined,
  }));
}
const PERIOD = { daily: "per UTC day", weekly: "per UTC week (from Monday)", monthly: "per UTC month", none: "in all (never resets)" };
const policyJson = (s) => ({
  keyId: s.policy.keyId,
  agentName: s.policy.agentName,
  otherAgents: s.policy.otherAgents || undefined,
  reset: s.policy.reset,
  budgetCredits: s.policy.budgetCredits,
  maxPriceCredits: s.policy.maxPriceCredits,
  capabilityCaps: s.capabilityCaps.map((c) => ({ ...c.cap, spentCredits: c.spentCredits, count: c.count })),
  spentCredits: s.spentCredits,
  heldCredits: s.heldCredits,
  remainingCredits: s.remainingCredits,
  periodStart: iso(s.periodStart),
  resetsAt: iso(s.resetsAt) || null,
});
/** " (agent alpha)", " (agents without a policy of their own)" or "" for the key-wide policy. */
const whose = (p) =>
  p.agentName !== undefined ? ` (agent ${p.agentName})` : p.otherAgents ? " (agents without a policy of their own)" : "";
/** "key_1 (agent alpha): budget 100 credits per UTC day, 30 spent (10 held), 70 left; email.send: ...; resets at ...". */
function describePolicy(s) {
  const p = s.policy;
  const parts = [];
  if (p.budgetCredits !== undefined)
    parts.push(
      `budget ${p.budgetCredits} credits ${PERIOD[p.reset]}, ${s.spentCredits} spent (${s.heldCredits} held), ${s.remainingCredits} left`,
    );
  for (const c of s.capabilityCaps) {
    const limits = [
      c.cap.maxCredits !== undefined ? `${c.cap.maxCredits} credits` : "",
      c.cap.maxCount !== undefined ? `${c.cap.maxCount} executions` : "",
    ];
    parts.push(
      `${c.cap.capabilityKey}: at most ${limits.filter(Boolean).join(" and ")} ${PERIOD[p.reset]} (${c.spentCredits} credits, ${c.count} executions so far)`,
    );
  }
  if (p.maxPriceCredits !== undefined) parts.push(`at most ${p.maxPriceCredits} credits per execution`);
  // Only a budget or a cap has a period; a maximum price alone never resets.
  const periodic = p.budgetCredits !== undefined || s.capabilityCaps.length > 0;
  const resets = periodic && s.resetsAt ? `; resets at ${iso(s.resetsAt)}` : "";
  return `${p.keyId}${whose(p)}: ${parts.join("; ")}${resets}`;
}
const print = (value) => process.stdout.write(`${typeof value === "string" ? value : JSON.stringify(value, null, 2)}\n`);

switch (command) {
  case "create": {
    if (!args.values.user || rest.length) fail(`create needs --user <userId>\n${USAGE}`, 2);
    if (args.values.agent !== undefined && args.values.agents !== undefined)
      fail(`create takes --agent (a key of one agent) or --agents (one of several required), not both\n${USAGE}`, 2);
    const agentNames = (args.values.agents ?? "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    if (args.values.agents !== undefined && !agentNames.length) fail(`--agents needs at least one agent name\n${USAGE}`, 2);
    const res = await call("createApiKey", {
      userId: args.values.user,
      name: args.values.name ?? "",
      agentName: args.values.agent,
      ...(agentNames.length ? { agentNames: { names: agentNames } } : {}),
    });
    if (args.values.json) print({ apiKey: res.apiKey, ...info(res.key) });
    else {
      print(
        `Created key ${res.key.keyId} for user ${res.key.userId}${res.key.name ? ` (${res.key.name})` : ""}${describeAgents(res.key)}:\n`,
      );
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
          `${k.keyId}  ${k.prefix}...  user=${k.userId}  created=${k.createdAt}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ""}${k.agentName ? `  agent=${k.agentName}` : ""}${k.agentNames ? `  agents=${k.agentNames.join(",")}` : ""}${k.limits ? `  limits: ${describeLimits(k.limits)}` : ""}${k.name ? `  ${k.name}` : ""}`,
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
  case "policy": {
    const keyId = args.values.key;
    if (!keyId || rest.length) fail(`policy needs --key <keyId> (key_...; see \`npm run keys -- list\`)\n${USAGE}`, 2);
    const agentName = args.values.agent;
    const otherAgents = Boolean(args.values["other-agents"]);
    if (otherAgents && agentName !== undefined) fail(`policy takes --agent or --other-agents, not both\n${USAGE}`, 2);
    const caps = capabilityCaps();
    const budgetCredits = count("budget");
    const maxPriceCredits = count("max-price");
    const setting = budgetCredits !== undefined || maxPriceCredits !== undefined || caps.length > 0;
    if (setting && args.values.clear) fail(`policy takes --clear or limits to set, not both\n${USAGE}`, 2);
    if ((budgetCredits !== undefined || caps.length > 0) && !args.values.reset)
      fail(`a budget or a capability cap needs --reset daily|weekly|monthly|none\n${USAGE}`, 2);
    if (setting || args.values.clear) {
      const policy = {
        keyId,
        agentName,
        otherAgents,
        budgetCredits,
        reset: args.values.reset ?? "none",
        capabilityCaps: caps,
        maxPriceCredits,
      };
      const res = await call("setSpendPolicy", { policy, clear: Boolean(args.values.clear) });
      if (args.values.json)
        print(res.status ? policyJson(res.status) : { keyId, agentName, otherAgents: otherAgents || undefined, cleared: true });
      else print(res.status ? describePolicy(res.status) : `${keyId}${whose({ agentName, otherAgents })}: no spend policy.`);
    } else {
      const { policies } = await call("getSpendPolicies", { keyId, userId: "" });
      const shown = policies.filter(
        (s) => (agentName === undefined || s.policy.agentName === agentName) && (!otherAgents || s.policy.otherAgents),
      );
      if (args.values.json) print(shown.map(policyJson));
      else print(shown.length ? shown.map(describePolicy).join("\n") : `${keyId}: no spend policy.`);
    }
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
