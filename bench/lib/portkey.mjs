// Portkey's open-source AI gateway (`@portkey-ai/gateway` on npm), the pure proxy a user would put in
// front of a model vendor instead of this project: the bench runs it in front of the sandbox's
// OpenAI-compatible endpoint, beside our execute of models.chat.complete on the same endpoint. It is
// installed on demand (once per version) into a folder of the OS temp dir, never into the repository,
// and runs in its own process as the npm package's own start script does (headless, production).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnManaged, tail } from "./processes.mjs";

export const PORTKEY_VERSION = "1.15.2";
const HOST = "127.0.0.1";

/** The folder Portkey's gateway is installed in, and its start script. */
function installDir() {
  const dir = join(tmpdir(), `agentic-bench-portkey-${PORTKEY_VERSION}`);
  return { dir, script: join(dir, "node_modules/@portkey-ai/gateway/build/start-server.js") };
}

/** Installs the gateway when missing (npm, no install scripts); resolves its start script, or throws why not. */
export function ensurePortkey(log) {
  const { dir, script } = installDir();
  if (existsSync(script)) return script;
  log(`installing @portkey-ai/gateway@${PORTKEY_VERSION} into ${dir} (once)...`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, name: "agentic-bench-portkey" }));
  execFileSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", `@portkey-ai/gateway@${PORTKEY_VERSION}`], {
    cwd: dir,
    stdio: "ignore",
    timeout: 300_000,
  });
  if (!existsSync(script)) throw new Error(`npm installed @portkey-ai/gateway@${PORTKEY_VERSION} without ${script}`);
  return script;
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts Portkey's gateway on a free loopback port; resolves { url, pid, child } once it answers.
 * Its request log stays as the package runs it (no Redis, no UI: --headless, NODE_ENV=production).
 */
export async function startPortkey({ logFile, log }) {
  const script = ensurePortkey(log);
  const port = await freePort();
  const child = spawnManaged("portkey", process.execPath, [script, `--port=${port}`, "--headless"], {
    cwd: installDir().dir,
    env: { ...process.env, NODE_ENV: "production" },
    logFile,
  });
  const url = `http://${HOST}:${port}`;
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`Portkey's gateway exited during start; log ${logFile}:\n${tail(logFile)}`);
    const up = await fetch(`${url}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, pid: child.pid, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Portkey's gateway did not answer within 30 s; log ${logFile}:\n${tail(logFile)}`);
}

/** The headers that make Portkey's gateway forward a chat completion to an OpenAI-compatible `baseUrl` (…/v1) with `apiKey`. */
export function portkeyHeaders(baseUrl, apiKey) {
  return {
    "content-type": "application/json",
    authorization: `Bearer ${apiKey}`,
    "x-portkey-provider": "openai",
    "x-portkey-custom-host": baseUrl,
  };
}
