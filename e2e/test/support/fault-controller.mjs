#!/usr/bin/env node
// The whole system as real processes (scripts/system.mjs, free ports) under a test's control: the
// test sends one JSON command per line on stdin ({"cmd":"kill","name":"ledger"}, {"cmd":"restart",
// "name":"ledger"}, {"cmd":"stop"}) and reads one JSON answer per line on stdout. The first line is
// the system's description once it is ready. A service that dies is not restarted by itself.
import { createInterface } from "node:readline";
import { startSystem } from "../../../scripts/system.mjs";

const reply = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

let system;
try {
  system = await startSystem({ freePorts: true, logDir: process.env.AGENTIC_LOG_DIR, onExit: () => undefined });
} catch (err) {
  reply({ error: String(err?.message ?? err) });
  process.exit(1);
}
const { origin, baseUrl, apiKey, adminIdentityKey, natsUrl, ports } = system;
reply({ origin, baseUrl, apiKey, adminIdentityKey, natsUrl, ports });

const commands = createInterface({ input: process.stdin });
for await (const line of commands) {
  const { cmd, name, signal } = JSON.parse(line);
  try {
    let exit;
    if (cmd === "kill") exit = await system.kill(name, signal ?? "SIGKILL");
    else if (cmd === "restart") await system.restart(name);
    else if (cmd === "stop") break;
    else throw new Error(`unknown command ${cmd}`);
    reply({ ok: true, ...(exit ? { exit } : {}) });
  } catch (err) {
    reply({ error: String(err?.message ?? err) });
  }
}
await system.stop();
reply({ ok: true, stopped: true });
process.exit(0);
