// The `agentic-api` CLI (the built bin, run as a child process) against the real system: tables,
// --json output, the price printed before an execute, the refusal to spend without --yes when
// there is no terminal, and an exit code for each kind of failure.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { startSystem, type RunningSystem } from "../support/system";
import { fund, newApiKey } from "../support/system-helpers";

// The built bin of the SDK package, as `npx agentic-api` runs it.
const BIN = join(dirname(require.resolve("@agentic-api/sdk/package.json")), "dist", "cli", "main.js");
const RICH = { key: newApiKey(), user: "cli-rich" };
const POOR = { key: newApiKey(), user: "cli-poor" };
const LISBON = '{"timezone":"Europe/Lisbon"}';

let sys: RunningSystem;

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the SDK first (npm test builds every workspace)`);
  sys = await startSystem({ AGENTIC_API_KEYS: `${RICH.key}:${RICH.user},${POOR.key}:${POOR.user}` });
  await fund(sys.baseUrl, RICH.user, 1_000);
  await fund(sys.baseUrl, POOR.user, 1);
}, 90_000);
afterAll(() => sys?.stop());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args`; stdin is not a terminal (as in a script or CI). */
function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH, AGENTIC_API_BASE_URL: sys.baseUrl, AGENTIC_API_KEY: RICH.key, ...env } as NodeJS.ProcessEnv },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

const balance = async () => JSON.parse((await cli(["wallet", "--json"])).stdout).balanceCredits as number;

describe("discovery commands", () => {
  it("domains: a table for people, the API's JSON with --json", async () => {
    const table = await cli(["domains"]);
    expect(table.code).toBe(0);
    expect(table.stdout.split("\n")[0]).toMatch(/^DOMAIN\s+STATUS\s+LIVE\s+FROM \(CREDITS\)\s+LABEL$/);
    expect(table.stdout).toMatch(/^geo\s+live\s+\d+\/\d+/m);

    const json = await cli(["domains", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await (await fetch(`${sys.baseUrl}/domains`)).json());
  });

  it("capabilities, contract and routes of a capability", async () => {
    const capabilities = await cli(["capabilities", "geo"]);
    expect(capabilities.stdout).toMatch(/^time-current\s+live\s+2\s+timeapi/m);

    const contract = await cli(["contract", "geo", "time-current"]);
    expect(contract.code).toBe(0);
    expect(contract.stdout).toMatch(/^timezone\s+string/m);
    expect(contract.stdout).toContain("at least one of: location | timezone");
    expect(JSON.parse((await cli(["contract", "geo", "time-current", "--json"])).stdout)).toMatchObject({
      capabilityKey: "geo.time.current",
    });

    const routes = await cli(["routes", "geo", "time-current"]);
    expect(routes.stdout).toMatch(/^geo\.time\.current\.timeapi\.mpp\s+timeapi\s+live\s+managed\s+mpp\s+2\s+per_call$/m);
  });

  it("recommend with --prefer, as a table and as JSON", async () => {
    const table = await cli(["recommend", "geo", "time-current", "--prefer", "cost,speed"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^recommended: timeapi \(geo\.time\.current\.timeapi\.mpp, managed\)$/m);
    expect(table.stdout).toContain("can execute now: yes");

    const json = await cli(["recommend", "geo", "time-current", "--json-input", '{"placeLookup":false}', "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ recommendedRouteKey: "geo.time.current.timeapi.mpp", canExecuteNow: true });
  });
});

describe("execute", () => {
  it("prints the price first, and without a terminal refuses to spend unless --yes is given", async () => {
    const before = await balance();
    const refused = await cli(["execute", "geo", "time-current", "--json-input", LISBON]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split("\n")[0]).toBe("geo.time.current via timeapi (geo.time.current.timeapi.mpp): 2 credits (0.002 USD)");
    expect(refused.stderr).toContain("pass --yes");
    expect(await balance()).toBe(before);

    const done = await cli(["execute", "geo", "time-current", "--json-input", LISBON, "--yes", "--json", "--agent-name", "cli-test"]);
    expect(done.code).toBe(0);
    expect(done.stderr.split("\n")[0]).toContain("2 credits");
    expect(JSON.parse(done.stdout)).toMatchObject({
      success: true,
      provider: "timeapi",
      creditsCharged: 2,
      data: { timezone: "Europe/Lisbon" },
    });
    expect(await balance()).toBe(before - 2);
  });

  it("shows the result for people, with the execution and its idempotency key", async () => {
    const done = await cli(["execute", "geo", "time-current", "--json-input", LISBON, "--yes", "--idempotency-key", "cli-human-1"]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^succeeded via timeapi \(geo\.time\.current\.timeapi\.mpp\)$/m);
    expect(done.stdout).toMatch(/^execution: exe_\S+ {2}idempotency key: cli-human-1$/m);
  });
});

describe("exit codes", () => {
  it("2 for wrong input: an unknown command, a bad option value, JSON that is not JSON, and a body the API refuses (400, 404)", async () => {
    expect((await cli(["fly"])).code).toBe(2);
    expect((await cli(["recommend", "geo", "time-current", "--prefer", "cheapest"])).code).toBe(2);
    expect((await cli(["recommend", "geo", "time-current", "--json-input", "{oops"])).code).toBe(2);
    const refused = await cli(["execute", "geo", "time-current", "--json-input", "{}", "--yes", "--json"]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stderr.trim().split("\n").at(-1)!)).toMatchObject({
      status: 400,
      code: "INVALID_INPUT",
      hint: expect.any(String),
    });
    expect((await cli(["contract", "geo", "time-travel"])).code).toBe(2);
  });

  it("3 without a key or with a refused one, 4 without the credits (saying how many are missing)", async () => {
    const noKey = await cli(["wallet"], { AGENTIC_API_KEY: undefined });
    expect(noKey.code).toBe(3);
    expect(noKey.stderr).toContain("set AGENTIC_API_KEY");
    expect((await cli(["wallet"], { AGENTIC_API_KEY: newApiKey() })).code).toBe(3);

    const poor = await cli(["execute", "geo", "time-current", "--json-input", LISBON, "--yes"], { AGENTIC_API_KEY: POOR.key });
    expect(poor.code).toBe(4);
    expect(poor.stderr).toMatch(/CREDITS_REQUIRED, HTTP 402/);
    expect(poor.stderr).toContain("missing: 1 credits (0.001 USD)");
  });

  it("5 when the provider fails or nothing answers", async () => {
    const sandbox = `http://127.0.0.1:${sys.ports.sandbox!.port}/_control/faults`;
    await fetch(sandbox, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ provider: "timeapi", mode: "5xx", count: 1 }),
    });
    const failed = await cli(["execute", "geo", "time-current", "--json-input", LISBON, "--yes", "--provider", "timeapi"]);
    expect(failed.code).toBe(5);
    expect(failed.stderr).toContain("PROVIDER_ERROR, HTTP 502");

    const nowhere = await cli(["domains", "--timeout-ms", "2000"], { AGENTIC_API_BASE_URL: "http://127.0.0.1:1/api/agentic-api" });
    expect(nowhere.code).toBe(5);
    expect(nowhere.stderr).toContain("NETWORK_ERROR");
  });

  it("0 for usage and --help; usage --json is the list of items", async () => {
    const usage = await cli(["usage", "--limit", "2", "--json"]);
    expect(usage.code).toBe(0);
    expect(Array.isArray(JSON.parse(usage.stdout))).toBe(true);
    expect(JSON.parse(usage.stdout).length).toBeLessThanOrEqual(2);
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Exit codes:");
  });
});
