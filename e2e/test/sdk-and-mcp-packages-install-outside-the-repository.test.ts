// The SDK and the MCP server are packages a stranger installs: `npm pack` of each (as built by
// `npm test`), installed together into an empty project in a temp dir outside the repository. There
// `import { AgenticApiClient } from "@agentic-api/sdk"` type-checks (and a wrong call does not), and
// both command-line programs run: `agentic-api --help`, and `agentic-api-mcp` answering an MCP
// initialize over stdio. npm installs with --prefer-offline: the MCP package's dependencies
// (@modelcontextprotocol/sdk, zod, …) come from npm's cache, where this repository's install put them.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./support/system";

const TSC = join(REPO_ROOT, "node_modules/typescript/bin/tsc");

let dir: string;
let project: string;

/** A process environment with no trace of this repository (no npm_* variables, no node_modules/.bin on PATH). */
function strangerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) && !name.startsWith("AGENTIC_")) env[name] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(":")
    .filter((d) => !d.includes("node_modules"))
    .join(":");
  return env;
}

function pack(workspace: string): string {
  const out = execFileSync("npm", ["pack", "--pack-destination", dir, "--json"], {
    cwd: join(REPO_ROOT, workspace),
    env: strangerEnv(),
    encoding: "utf8",
  });
  return join(dir, (JSON.parse(out) as Array<{ filename: string }>)[0]!.filename);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "agentic-packages-"));
  const tarballs = [pack("packages/sdk"), pack("packages/mcp")];
  project = join(dir, "stranger");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "stranger", version: "1.0.0", private: true }));
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs], {
    cwd: project,
    env: strangerEnv(),
    stdio: "pipe",
  });
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function typeCheck(source: string): { status: number; output: string } {
  writeFileSync(join(project, "check.ts"), source);
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: "node16",
        moduleResolution: "node16",
        target: "es2022",
        lib: ["es2022", "dom"],
        types: [],
      },
      files: ["check.ts"],
    }),
  );
  try {
    return { status: 0, output: execFileSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: project, encoding: "utf8" }) };
  } catch (err) {
    const e = err as { status: number; stdout: string };
    return { status: e.status, output: e.stdout };
  }
}

describe("@agentic-api/sdk and @agentic-api/mcp, packed and installed into an empty project", () => {
  it("import { AgenticApiClient } type-checks, with the SDK's own types", () => {
    const ok = typeCheck(`import { AgenticApiClient } from "@agentic-api/sdk";
const client = new AgenticApiClient({ apiKey: "aak_x", baseUrl: "http://localhost:8080/api/agentic-api" });
export const found: Promise<{ matches: unknown[] }> = client.route({ task: "what time is it in Lisbon" });
`);
    expect(ok).toEqual({ status: 0, output: "" });

    const wrong = typeCheck(`import { AgenticApiClient } from "@agentic-api/sdk";
export const found = new AgenticApiClient({ apiKey: "aak_x" }).route({ taks: 1 });
`);
    expect(wrong.status).not.toBe(0);
    expect(wrong.output).toMatch(/check\.ts.*error TS/);
  });

  it("agentic-api --help runs", () => {
    const help = execFileSync(join(project, "node_modules/.bin/agentic-api"), ["--help"], {
      cwd: project,
      env: strangerEnv(),
      encoding: "utf8",
    });
    expect(help).toMatch(/^Usage: agentic-api <command>/);
  });

  it("agentic-api-mcp answers an MCP initialize over stdio", async () => {
    // No API behind it (port 9): the server still starts and answers; it reads the catalog later.
    const server = spawn(join(project, "node_modules/.bin/agentic-api-mcp"), [], {
      cwd: project,
      env: { ...strangerEnv(), AGENTIC_API_BASE_URL: "http://127.0.0.1:9/api/agentic-api" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((r) => server.once("exit", (code) => r(code)));
    const firstLine = new Promise<string>((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      server.once("exit", (code) => reject(new Error(`agentic-api-mcp exited (code ${code}) without answering`)));
    });
    server.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "stranger", version: "1" } } })}\n`,
    );
    const answer = JSON.parse(await firstLine) as { id: number; result: { serverInfo: { name: string } } };
    server.stdin.end();
    expect(answer).toMatchObject({ id: 1, result: { serverInfo: { name: "agentic-api" } } });
    expect(await exited).toBe(0);
  });
});
