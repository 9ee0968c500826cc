#!/usr/bin/env node
// Idle latency of the MCP server, as an MCP client sees it (the official SDK's Client): tools/list
// and one execute call, N times one after another, over Streamable HTTP (the gateway's /mcp) and
// over stdio (the built bin), with the same execute over REST for comparison. Starts the whole
// system (scripts/start.mjs on free ports, rate limits raised so a sequential run is never limited),
// prints p50/p99 in ms, and stops it. On Linux it also prints the CPU time per call of the gateway
// and of the stdio server process (from /proc): the figure a busy machine disturbs least. Each
// execute carries a new idempotencyKey, so each one runs and is charged (the sandbox plays the
// provider); "replayed" repeats one call, as an LLM's retry does.
//   npm run bench -w @agentic-api/mcp [-- --calls 200]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const BIN = resolve(import.meta.dirname, "../dist/main.js");
const callsAt = process.argv.indexOf("--calls");
const calls = callsAt > 0 ? Number(process.argv[callsAt + 1]) : 200;
if (!Number.isInteger(calls) || calls < 1) throw new Error("--calls takes a positive integer");
const WARMUP = 20;
const KEY = `aak_${"bench".repeat(8)}${Date.now()}`;
const USER = "mcp-bench";

async function startSystem() {
  const dir = mkdtempSync(join(tmpdir(), "agentic-mcp-bench-"));
  const readyFile = join(dir, "ready.json");
  const child = spawn(process.execPath, [join(ROOT, "scripts/start.mjs")], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: "warn",
      LEDGER_SQLITE_PATH: join(dir, "ledger.sqlite"),
      AGENTIC_API_KEYS: `${KEY}:${USER}`,
      RATE_LIMIT_RPS: "100000",
      RATE_LIMIT_BURST: "100000",
      AGENTIC_FREE_PORTS: "1",
      AGENTIC_READY_FILE: readyFile,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((r) => child.once("exit", r));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // The ready file is written whole (renamed into place) once everything is up; polled, as a file has no event to await here.
  for (const deadline = Date.now() + 90_000; !existsSync(readyFile); await sleep(200)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error("the system did not start");
    }
  }
  return { ...JSON.parse(readFileSync(readyFile, "utf8")), stop };
}

/** CPU time (user + system) a process has used, in ms; undefined where /proc is not there. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, in clock ticks (USER_HZ, 100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Processes whose CPU per call is reported, by name. */
const watched = new Map();

async function measure(label, fn) {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const cpuBefore = new Map([...watched].map(([name, pid]) => [name, cpuMs(pid)]));
  const ms = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await fn(WARMUP + i);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const cpu = [...watched]
    .map(([name, pid]) => [name, cpuBefore.get(name), cpuMs(pid)])
    .filter(([, before, after]) => before !== undefined && after !== undefined)
    .map(([name, before, after]) => `${name} CPU ${((after - before) / calls).toFixed(2)} ms/call`)
    .join(", ");
  console.log(
    `${label.padEnd(28)} p50 ${percentile(ms, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(ms, 99).toFixed(2).padStart(7)} ms${cpu ? `   ${cpu}` : ""}`,
  );
}

function check(result) {
  if (result.isError) throw new Error(`tool error: ${result.content[0].text}`);
  return result;
}

async function benchClient(label, client) {
  await measure(`${label} tools/list`, () => client.listTools());
  await measure(`${label} execute`, (i) =>
    client
      .callTool({
        name: "geo_time_current_execute",
        arguments: { timezone: "Europe/Lisbon", idempotencyKey: `${label}-${Date.now()}-${i}` },
      })
      .then(check),
  );
  await measure(`${label} execute (replayed)`, () =>
    client.callTool({ name: "geo_time_current_execute", arguments: { timezone: "Europe/Berlin" } }).then(check),
  );
}

const sys = await startSystem();
try {
  const funded = await fetch(`${sys.baseUrl}/dev/init`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userId: USER, balanceCredits: 10 * (calls + WARMUP) * 3 }),
  });
  if (!funded.ok) throw new Error(`dev/init answered ${funded.status}: ${await funded.text()}`);
  console.log(`MCP idle latency: ${calls} sequential calls after ${WARMUP} warm-up calls (geo.time.current: 2 credits, sandbox provider)`);
  watched.set("gateway", sys.pids.gateway);

  await measure("REST execute (baseline)", (i) =>
    fetch(`${sys.baseUrl}/domains/geo/capabilities/time-current/execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "idempotency-key": `rest-${Date.now()}-${i}` },
      body: JSON.stringify({ timezone: "Europe/Lisbon" }),
    }).then(async (res) => {
      if (!res.ok) throw new Error(`REST execute answered ${res.status}`);
      await res.arrayBuffer();
    }),
  );

  const http = new Client({ name: "bench", version: "1" });
  await http.connect(
    new StreamableHTTPClientTransport(new URL(`${sys.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }),
  );
  await benchClient("http", http);
  await http.close();

  const stdio = new Client({ name: "bench", version: "1" });
  const stdioTransport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: { AGENTIC_API_BASE_URL: sys.baseUrl, AGENTIC_API_KEY: KEY },
    stderr: "inherit",
  });
  await stdio.connect(stdioTransport);
  watched.set("stdio server", stdioTransport.pid);
  await benchClient("stdio", stdio);
  await stdio.close();
} finally {
  await sys.stop();
}
