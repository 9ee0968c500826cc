// The CLI's command line: commands, options and the help text, parsed with node:util parseArgs.
import { parseArgs } from "node:util";
import { CliError, EXIT } from "./exit-codes";

export const USAGE = `Usage: agentic-api <command> [arguments] [options]

Discover:
  find "<task>" [--domain D] [--limit N]
                                   which capability does a task written in words (free, no key)
  domains                          the domains of the catalog
  capabilities <domain>            a domain's capabilities, with status and starting price
  contract <domain> <id>           the exact fields of a capability's recommend and execute calls
  routes <domain> <id>             a capability's routes: provider, rail, price, status

Decide and run:
  recommend <domain> <id> [--json-input JSON] [--prefer cost,speed]
                                   the route that would run, its price and what blocks it (free)
  execute <domain> <id> --json-input JSON [--yes]
                                   runs the capability (paid): prints the price first and asks
                                   on a terminal; --yes is needed when there is no terminal

Account:
  wallet                           the credit balance (1000 credits = 1 USD)
  usage [--limit N]                the newest usage items (default 20), pages followed as needed

Options:
  --json                 print the API's JSON (errors too, on stderr) instead of tables
  --json-input JSON      the capability input: JSON text, @file.json, or - for stdin
  --prefer LIST          optimization preferences in order: cost, reliability, speed, quality
  --provider KEY         execute: pin a provider
  --route-key KEY        execute: pin one route
  --no-fallback          execute: no other route may run when the chosen one fails
  --idempotency-key KEY  execute: the key of this call (default: a new UUID); reuse it to retry safely
  --agent-name NAME      execute: sent as Agent-Name (shown in usage)
  --yes, -y              execute without asking
  --limit N              usage: how many items; find: how many matches (1-20, default 5)
  --domain KEY           find: look in one domain only
  --timeout-ms N         total deadline of a call, retries included (default 60000)
  --base-url URL         the API (default $AGENTIC_API_BASE_URL, else http://localhost:8080/api/agentic-api)
  --help, -h             this text
  --version              the CLI's version

Environment:
  AGENTIC_API_KEY        the API key (aak_...), needed by recommend, execute, wallet and usage
  AGENTIC_API_BASE_URL   the API's base URL

Exit codes:
  0 done; 1 unexpected failure; 2 wrong input (usage, JSON, or a 400/404/409 answer);
  3 no or refused API key (401, 403); 4 too few credits (402);
  5 server, provider, network or rate limit (5xx, 429, no answer): try again later;
  6 execute not confirmed at the prompt.`;

/** Positional arguments each command takes. */
const ARITY: Record<string, string[]> = {
  find: ["task"],
  domains: [],
  capabilities: ["domain"],
  contract: ["domain", "id"],
  routes: ["domain", "id"],
  recommend: ["domain", "id"],
  execute: ["domain", "id"],
  wallet: [],
  usage: [],
};

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  values: {
    json: boolean;
    yes: boolean;
    help: boolean;
    version: boolean;
    noFallback: boolean;
    jsonInput: string | undefined;
    prefer: string | undefined;
    provider: string | undefined;
    routeKey: string | undefined;
    idempotencyKey: string | undefined;
    agentName: string | undefined;
    limit: number | undefined;
    timeoutMs: number | undefined;
    baseUrl: string | undefined;
    domain: string | undefined;
  };
}

function positiveInteger(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new CliError(`--${name} must be a positive whole number, not ${JSON.stringify(raw)}`, EXIT.INPUT);
  return Number(raw);
}

export function parseCommandLine(argv: string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: "boolean", default: false },
        yes: { type: "boolean", short: "y", default: false },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", default: false },
        "no-fallback": { type: "boolean", default: false },
        "json-input": { type: "string" },
        prefer: { type: "string" },
        provider: { type: "string" },
        "route-key": { type: "string" },
        "idempotency-key": { type: "string" },
        "agent-name": { type: "string" },
        limit: { type: "string" },
        "timeout-ms": { type: "string" },
        "base-url": { type: "string" },
        domain: { type: "string" },
      },
    });
  } catch (err) {
    throw new CliError((err as Error).message, EXIT.INPUT, "Run agentic-api --help for the commands and options.");
  }
  const [command, ...positionals] = parsed.positionals;
  const v = parsed.values;
  const result: ParsedArgs = {
    command,
    positionals,
    values: {
      json: v.json,
      yes: v.yes,
      help: v.help,
      version: v.version,
      noFallback: v["no-fallback"],
      jsonInput: v["json-input"],
      prefer: v.prefer,
      provider: v.provider,
      routeKey: v["route-key"],
      idempotencyKey: v["idempotency-key"],
      agentName: v["agent-name"],
      limit: positiveInteger("limit", v.limit),
      timeoutMs: positiveInteger("timeout-ms", v["timeout-ms"]),
      baseUrl: v["base-url"],
      domain: v.domain,
    },
  };
  if (result.values.help || result.values.version || command === undefined) return result;
  const expected = ARITY[command];
  if (!expected) throw new CliError(`unknown command ${JSON.stringify(command)}`, EXIT.INPUT, "Run agentic-api --help for the commands.");
  if (positionals.length !== expected.length) {
    const shape = [command, ...expected.map((name) => `<${name}>`)].join(" ");
    throw new CliError(`${command} takes ${expected.length || "no"} argument${expected.length === 1 ? "" : "s"}: ${shape}`, EXIT.INPUT);
  }
  return result;
}
