// Runs one CLI invocation: parses the command line, calls the API through the SDK, prints a table
// (or --json), and answers the exit code. Output goes to stdout; errors, the price line, the prompt
// and the spinner go to stderr, so `--json` output on stdout is always just the answer.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AgenticApiClient, DEFAULT_AGENTIC_API_BASE_URL } from "../client";
import { AgenticApiError, InsufficientCreditsError } from "../errors";
import type { CapabilityInput, RecommendationResponse } from "../types";
import { USAGE, parseCommandLine, type ParsedArgs } from "./args";
import { confirm } from "./confirm";
import { CliError, EXIT, exitCodeOf } from "./exit-codes";
import {
  renderCapabilities,
  renderContract,
  renderDomains,
  renderExecution,
  renderRecommendation,
  renderRouteAnswer,
  renderRoutes,
  renderUsage,
  renderWallet,
} from "./render";
import { withSpinner } from "./spinner";
import { credits } from "./table";

export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

const PREFERENCES = ["cost", "reliability", "speed", "quality"];

/** What a command prints: the API's answer for --json, and its human view. */
interface Output {
  json: unknown;
  text: string;
}

function version(): string {
  // dist/cli/run.js and src/cli/run.ts both sit two levels under the package.
  return (JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string }).version;
}

/** The --json-input object: JSON text, @file, or - for all of standard input (file descriptor 0). */
function readInput(raw: string | undefined): CapabilityInput | undefined {
  if (raw === undefined) return undefined;
  let text = raw;
  if (raw === "-") text = readFileSync(0, "utf8");
  else if (raw.startsWith("@")) {
    try {
      text = readFileSync(raw.slice(1), "utf8");
    } catch (err) {
      throw new CliError(`--json-input ${raw}: ${(err as Error).message}`, EXIT.INPUT);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(
      `--json-input is not JSON: ${(err as Error).message}`,
      EXIT.INPUT,
      `Pass an object, e.g. --json-input '{"timezone":"Europe/Lisbon"}'.`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new CliError("--json-input must be a JSON object", EXIT.INPUT);
  return value as CapabilityInput;
}

function preferences(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = list.find((p) => !PREFERENCES.includes(p));
  if (unknown !== undefined)
    throw new CliError(
      `--prefer: unknown preference ${JSON.stringify(unknown)}`,
      EXIT.INPUT,
      `Use any of ${PREFERENCES.join(", ")}, in priority order.`,
    );
  return list;
}

/** The candidate that will run: the pinned route, else the pinned provider's best, else the router's best executable. */
function chosenCandidate(rec: RecommendationResponse, routeKey: string | undefined, provider: string | undefined) {
  const byScore = [...rec.candidates].sort((a, b) => b.score - a.score);
  if (routeKey !== undefined) return rec.candidates.find((c) => c.routeKey === routeKey);
  if (provider !== undefined)
    return byScore.find((c) => c.provider === provider && c.canExecuteNow) ?? byScore.find((c) => c.provider === provider);
  const key = rec.bestExecutableRouteKey ?? rec.recommendedRouteKey;
  return rec.candidates.find((c) => c.routeKey === key);
}

async function execute(client: AgenticApiClient, args: ParsedArgs, io: Io): Promise<Output> {
  const [domain, capability] = args.positionals as [string, string];
  const v = args.values;
  const input = readInput(v.jsonInput);
  if (input === undefined)
    throw new CliError("execute needs --json-input", EXIT.INPUT, `Read the fields with: agentic-api contract ${domain} ${capability}`);

  // The price first: the recommend of the same call (free) names the route that will run and its price.
  const contract = await client.catalog.capabilities.contract(domain, capability);
  const recommendFields = new Set((contract.recommend?.fields ?? []).map((f) => f.name));
  const recommendInput = Object.fromEntries(Object.entries(input).filter(([name]) => recommendFields.has(name)));
  const rec = await client.capabilities.recommend({ domain, capability, input: recommendInput });
  const chosen = chosenCandidate(rec, v.routeKey, v.provider);
  if (chosen) {
    io.stderr.write(`${contract.capabilityKey} via ${chosen.provider} (${chosen.routeKey}): ${credits(chosen.priceCredits)}\n`);
    if (!chosen.canExecuteNow) io.stderr.write(`warning: this route cannot execute now: ${chosen.blockingRequirements.join(", ")}\n`);
  } else {
    io.stderr.write(`${contract.capabilityKey}: no route matches; the API will say why\n`);
  }

  if (!v.yes) {
    if (!io.stdin.isTTY || v.jsonInput === "-") {
      throw new CliError("execute spends credits: pass --yes to run it without a terminal to confirm on", EXIT.INPUT);
    }
    const price = chosen ? ` for ${chosen.priceCredits} credits` : "";
    if (!(await confirm(`Execute ${contract.capabilityKey}${price}?`, io.stdin, io.stderr)))
      throw new CliError("not executed", EXIT.DECLINED);
  }

  const result = await withSpinner(io.stderr, `executing ${contract.capabilityKey}…`, () =>
    client.capabilities.execute({
      domain,
      capability,
      input,
      ...(v.provider !== undefined ? { provider: v.provider } : {}),
      ...(v.routeKey !== undefined ? { routeKey: v.routeKey } : {}),
      ...(v.noFallback ? { allowFallback: false } : {}),
      ...(v.idempotencyKey !== undefined ? { idempotencyKey: v.idempotencyKey } : {}),
      ...(v.agentName !== undefined ? { agentName: v.agentName } : {}),
    }),
  );
  return { json: result, text: renderExecution(result) };
}

async function dispatch(client: AgenticApiClient, args: ParsedArgs, io: Io): Promise<Output> {
  const [a, b] = args.positionals as [string, string];
  const v = args.values;
  switch (args.command) {
    case "find": {
      const answer = await client.route({
        task: a,
        ...(v.limit !== undefined ? { limit: v.limit } : {}),
        ...(v.domain !== undefined ? { domain: v.domain } : {}),
      });
      return { json: answer, text: renderRouteAnswer(answer) };
    }
    case "domains": {
      const domains = await client.catalog.domains.list();
      return { json: domains, text: renderDomains(domains) };
    }
    case "capabilities": {
      const capabilities = await client.catalog.capabilities.list(a);
      return { json: capabilities, text: renderCapabilities(capabilities) };
    }
    case "contract": {
      const contract = await client.catalog.capabilities.contract(a, b);
      return { json: contract, text: renderContract(contract) };
    }
    case "routes": {
      const routes = await client.catalog.capabilities.routes(a, b);
      return { json: routes, text: renderRoutes(routes) };
    }
    case "recommend": {
      const prefer = preferences(v.prefer);
      const input = { ...readInput(v.jsonInput), ...(prefer ? { optimizationPreferences: prefer } : {}) };
      const rec = await client.capabilities.recommend({ domain: a, capability: b, input });
      return { json: rec, text: renderRecommendation(rec) };
    }
    case "execute":
      return execute(client, args, io);
    case "wallet": {
      const wallet = await client.wallet.get();
      return { json: wallet, text: renderWallet(wallet) };
    }
    case "usage": {
      const items = await client.usage.list({ limit: v.limit ?? 20 });
      return { json: items, text: renderUsage(items) };
    }
    default:
      throw new CliError(`unknown command ${JSON.stringify(args.command)}`, EXIT.INPUT);
  }
}

function reportError(err: unknown, json: boolean, io: Io): void {
  const missingKey = err instanceof AgenticApiError && err.code === "AGENTIC_API_KEY_REQUIRED" && !io.env.AGENTIC_API_KEY;
  if (json) {
    const body =
      err instanceof AgenticApiError
        ? {
            success: false,
            status: err.status ?? null,
            code: err.code,
            error: err.message,
            hint: err.hint ?? null,
            traceId: err.traceId ?? null,
            executionId: err.executionId ?? null,
            ...(err instanceof InsufficientCreditsError
              ? { requiredCredits: err.requiredCredits ?? null, missingCredits: err.missingCredits ?? null }
              : {}),
          }
        : { success: false, code: err instanceof CliError ? "CLI_ERROR" : "UNEXPECTED", error: (err as Error)?.message ?? String(err) };
    io.stderr.write(`${JSON.stringify(body)}\n`);
    return;
  }
  const lines = [`error: ${(err as Error)?.message ?? String(err)}`];
  if (err instanceof AgenticApiError) {
    lines[0] += ` (${err.code}${err.status !== undefined ? `, HTTP ${err.status}` : ""})`;
    if (err instanceof InsufficientCreditsError && err.missingCredits !== undefined) lines.push(`missing: ${credits(err.missingCredits)}`);
    if (err.hint) lines.push(`hint: ${err.hint}`);
    if (missingKey) lines.push("hint: set AGENTIC_API_KEY to your API key (aak_...).");
    if (err.executionId) lines.push(`execution: ${err.executionId}`);
    if (err.traceId) lines.push(`trace: ${err.traceId}`);
  } else if (err instanceof CliError && err.hint) lines.push(`hint: ${err.hint}`);
  io.stderr.write(`${lines.join("\n")}\n`);
}

/** Runs the CLI with `argv` (without node and the script) and answers its exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  let json = argv.includes("--json");
  try {
    const args = parseCommandLine(argv);
    json = args.values.json;
    if (args.values.version) {
      io.stdout.write(`${version()}\n`);
      return EXIT.OK;
    }
    if (args.values.help || args.command === undefined) {
      (args.values.help ? io.stdout : io.stderr).write(`${USAGE}\n`);
      return args.values.help ? EXIT.OK : EXIT.INPUT;
    }
    const apiKey = io.env.AGENTIC_API_KEY || undefined;
    if (apiKey !== undefined && !apiKey.startsWith("aak_"))
      io.stderr.write("warning: AGENTIC_API_KEY does not start with aak_; is it an API key?\n");
    const client = new AgenticApiClient({
      ...(apiKey ? { apiKey } : {}),
      baseUrl: args.values.baseUrl ?? (io.env.AGENTIC_API_BASE_URL || DEFAULT_AGENTIC_API_BASE_URL),
      ...(args.values.timeoutMs !== undefined ? { timeoutMs: args.values.timeoutMs } : {}),
    });
    const output = await dispatch(client, args, io);
    io.stdout.write(`${json ? JSON.stringify(output.json, null, 2) : output.text}\n`);
    return EXIT.OK;
  } catch (err) {
    reportError(err, json, io);
    return exitCodeOf(err);
  }
}
