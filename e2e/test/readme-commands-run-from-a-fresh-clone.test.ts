// Every shell command of the root README's "Run it", "SDK and CLI" and "MCP" sections, run as a
// newcomer runs them: in a fresh `git clone` of this repository (its committed HEAD), after a real
// `npm install` there and against the system that clone's `npm start` starts.
//
// - `npm install` is the real one, with npm's `offline` setting: every package comes from this
//   machine's npm cache (about 40 s here), none from the network. The same setting makes any `npx`
//   that would fall through to the public registry fail instead of fetching a stranger's package.
// - The commands run with a PATH cleaned of every node_modules/.bin and without the npm_* variables
//   of the test run, so a command finds only what the clone itself links.
// - `npm start` runs on free ports (AGENTIC_FREE_PORTS=1, another system may hold 8080): the commands
//   are run with `localhost:8080` replaced by the address it printed, and `aak_...` by the key it printed.
// - `curl` runs with `-fsS`, so an HTTP error fails the command.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { REPO_ROOT } from "./support/system";

const SECTIONS = ["Run it", "SDK and CLI", "MCP"];

/** Commands that cannot run in a test, with the reason. */
const EXEMPT: Record<string, string> = {
  "npm test": "runs every test of the repository, this one included",
  'claude mcp add --transport http agentic-api http://localhost:8080/api/agentic-api/mcp --header "Authorization: Bearer $AGENTIC_API_KEY"':
    "needs Claude Code and writes into the user's own MCP client configuration (the /mcp endpoint it adds is tested by the MCP suites)",
};

interface ShCommand {
  section: string;
  /** The command as the README writes it, without its trailing comment. */
  text: string;
  /** `export` lines of the same block before it, which the README's reader has already run. */
  exports: string[];
}

/** The fenced ```sh blocks of the README's sections, one command a line. */
function readmeCommands(readme: string): ShCommand[] {
  const commands: ShCommand[] = [];
  for (const section of SECTIONS) {
    const start = readme.indexOf(`\n## ${section}\n`);
    if (start < 0) throw new Error(`README has no "## ${section}" section`);
    const end = readme.indexOf("\n## ", start + 1);
    const body = readme.slice(start, end < 0 ? undefined : end);
    for (const block of body.matchAll(/```sh\n([\s\S]*?)```/g)) {
      const exports: string[] = [];
      for (const line of block[1]!.split("\n")) {
        const text = line.replace(/\s+#\s.*$/, "").trim();
        if (!text) continue;
        commands.push({ section, text, exports: [...exports] });
        if (text.startsWith("export ")) exports.push(text);
      }
    }
  }
  return commands;
}

/** This process's environment without npm's run variables and without any node_modules/.bin on PATH. */
function newcomerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) && !name.startsWith("AGENTIC_") && !name.startsWith("JEST_")) env[name] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => !dir.includes("node_modules"))
    .join(delimiter);
  return { ...env, npm_config_offline: "true", npm_config_yes: "false", ...extra };
}

let clone: string;
let system: ChildProcess | undefined;
let origin = "";
let apiKey = "";
let startOutput = "";

/** The command with this system's address and key in place of the README's placeholders. */
function localised(text: string): string {
  return text
    .replaceAll("localhost:8080", origin.replace(/^https?:\/\//, ""))
    .replaceAll("aak_...", apiKey)
    .replace(/^curl /, "curl -fsS ");
}

function run(command: ShCommand, input?: string): { status: number | null; output: string } {
  const script = [...command.exports, command.text].map(localised).join("\n");
  const result = spawnSync("bash", ["-c", script], {
    cwd: clone,
    env: newcomerEnv(),
    input,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const commands = readmeCommands(readme);
const byText = (text: string) => commands.find((c) => c.text === text)!;

beforeAll(async () => {
  clone = mkdtempSync(join(tmpdir(), "agentic-fresh-clone-"));
  execFileSync("git", ["clone", "--quiet", REPO_ROOT, clone]);
  // The README's first command, `npm install && npm start`: the install here, the start below.
  execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: clone, env: newcomerEnv(), stdio: "pipe" });
  system = spawn("npm", ["start"], {
    cwd: clone,
    // The start's build reads this checkout's turbo cache (never writes it): a task whose inputs (every
    // file of its package and of those it depends on, the lockfile) hash the same replays the outputs
    // built from them here, instead of building every package a second time in the same run (about a
    // minute of two cores). A build from nothing in a clean clone is CI's own build step, before the tests.
    env: newcomerEnv({
      AGENTIC_FREE_PORTS: "1",
      LOG_LEVEL: "warn",
      TURBO_CACHE_DIR: join(REPO_ROOT, ".turbo", "cache"),
      TURBO_CACHE: "local:r",
    }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, stopped as a whole with Ctrl-C's signal
  });
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start did not announce the system within 8 minutes:\n${startOutput}`)), 480_000);
    const onData = (chunk: Buffer) => {
      startOutput += chunk.toString();
      const url = /Base URL:\s+(\S+)/.exec(startOutput);
      const key = /API key:\s+(aak_\w+)/.exec(startOutput);
      if (url && key && startOutput.includes("Ctrl-C")) {
        clearTimeout(timer);
        origin = new URL(url[1]!).origin;
        apiKey = key[1]!;
        ready();
      }
    };
    system!.stdout!.on("data", onData);
    system!.stderr!.on("data", (chunk: Buffer) => (startOutput += chunk.toString()));
    system!.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`npm start exited (code ${code}) before announcing the system:\n${startOutput}`));
    });
  });
}, 600_000);

afterAll(async () => {
  if (system?.pid && system.exitCode === null) {
    const exited = new Promise((r) => system!.once("exit", r));
    process.kill(-system.pid, "SIGINT");
    await exited;
  }
  if (clone) rmSync(clone, { recursive: true, force: true });
}, 60_000);

describe("the README's commands, from a fresh clone", () => {
  it("are the ones this test runs or exempts (a new command is added here too)", () => {
    expect(commands.map((c) => c.text)).toEqual([
      "npm install && npm start",
      "npm test",
      "curl localhost:8080/api/agentic-api/domains",
      "curl localhost:8080/api/agentic-api/domains/email/capabilities/send/contract",
      "curl localhost:8080/api/agentic-api/openapi.json",
      "export AGENTIC_API_BASE_URL=http://localhost:8080/api/agentic-api AGENTIC_API_KEY=aak_...",
      "curl -X POST $AGENTIC_API_BASE_URL/dev/init -H 'content-type: application/json' -d '{\"balanceCredits\": 1000}'",
      'npx agentic-api find "what time is it in Lisbon"',
      "npx agentic-api capabilities geo",
      "npx agentic-api recommend geo time-current --prefer cost",
      'npx agentic-api execute geo time-current --json-input \'{"timezone":"Europe/Lisbon"}\'',
      Object.keys(EXEMPT)[1],
      "AGENTIC_API_BASE_URL=http://localhost:8080/api/agentic-api AGENTIC_API_KEY=aak_... npx agentic-api-mcp",
    ]);
    for (const exempt of Object.keys(EXEMPT)) expect(commands.some((c) => c.text === exempt)).toBe(true);
  });

  it("npm install && npm start: the start prints the base URL, the key, the console and how to stop, not the sandbox's settings", () => {
    expect(startOutput).toMatch(/Base URL:\s+http:\/\/\S+\/api\/agentic-api/);
    expect(startOutput).toMatch(/API key:\s+aak_/);
    expect(startOutput).toMatch(/Console:\s+http:\/\/\S+\/console\//);
    expect(startOutput).toContain("Press Ctrl-C to stop.");
    // The provider sandbox's settings (one per provider and rail) are in a file the banner names.
    expect(startOutput).not.toMatch(/^[A-Z0-9_]+_BASE_URL=/m);
    expect(startOutput).toContain("its provider settings are in .data/sandbox-settings.txt");
    expect(readFileSync(join(clone, ".data/sandbox-settings.txt"), "utf8")).toMatch(/^[A-Z0-9_]+_BASE_URL=http:\/\/127\.0\.0\.1:\d+/m);
  });

  it.each(["domains", "domains/email/capabilities/send/contract", "openapi.json"])("curl …/%s answers 200", (path) => {
    const result = run(byText(`curl localhost:8080/api/agentic-api/${path}`));
    expect(result).toMatchObject({ status: 0 });
    expect(() => JSON.parse(result.output)).not.toThrow();
  });

  it("the SDK and CLI block: fund the development key, then find, capabilities and recommend", () => {
    const cli = commands.filter((c) => c.section === "SDK and CLI" && !c.text.startsWith("export ") && !c.text.includes(" execute "));
    for (const command of cli) {
      const result = run(command);
      expect({ command: command.text, status: result.status, output: result.output }).toMatchObject({ status: 0 });
      expect(result.output).not.toMatch(/Need to install|npm error/);
    }
    expect(run(byText('npx agentic-api find "what time is it in Lisbon"')).output).toContain("geo.time.current");
  });

  it("npx agentic-api execute shows the price, asks on the terminal and, answered yes, executes", () => {
    const command = byText('npx agentic-api execute geo time-current --json-input \'{"timezone":"Europe/Lisbon"}\'');
    // `script` gives the command a terminal, as a person's shell does; "y" answers its question.
    const inTerminal: ShCommand = { ...command, text: `script -qec ${shellQuote(localised(command.text))} /dev/null` };
    const result = run(inTerminal, "y\n");
    expect({ status: result.status, output: result.output }).toMatchObject({ status: 0 });
    expect(result.output).toMatch(/Execute geo\.time\.current/);
    expect(result.output).toMatch(/Europe\/Lisbon/);
  });

  it("npx agentic-api-mcp answers an MCP initialize over stdio and lists the capability tools", async () => {
    const command = byText("AGENTIC_API_BASE_URL=http://localhost:8080/api/agentic-api AGENTIC_API_KEY=aak_... npx agentic-api-mcp");
    const server = spawn("bash", ["-c", localised(command.text)], { cwd: clone, env: newcomerEnv(), stdio: ["pipe", "pipe", "pipe"] });
    const answers = new Map<number, { result?: { serverInfo?: unknown; tools?: Array<{ name: string }> } }>();
    let stderr = "";
    server.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    let pending = "";
    const answered = (id: number) =>
      new Promise<void>((resolve, reject) => {
        const check = () => (answers.has(id) ? resolve() : undefined);
        server.stdout!.on("data", check);
        server.once("exit", () => reject(new Error(`agentic-api-mcp exited before answering ${id}:\n${stderr}`)));
        check();
      });
    server.stdout!.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines.filter(Boolean)) {
        const message = JSON.parse(line) as { id?: number; result?: { serverInfo?: unknown; tools?: Array<{ name: string }> } };
        if (typeof message.id === "number") answers.set(message.id, message);
      }
    });
    const send = (message: object) => server.stdin!.write(`${JSON.stringify(message)}\n`);
    const exited = new Promise<number | null>((r) => server.once("exit", (code) => r(code)));

    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "readme-test", version: "0" } },
    });
    await answered(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    await answered(2);
    server.stdin!.end(); // the client goes away: the server exits
    expect(answers.get(1)?.result?.serverInfo).toBeDefined();
    expect(answers.get(2)?.result?.tools?.map((t) => t.name)).toContain("geo_time_current_execute");
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/Need to install|npm error/);
  });
});

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
