// `npm start`: serves the provider sandbox on SANDBOX_PORT (else PORT, default 8090) and prints the
// env lines an executor needs to use it (wallet keys left out: any key works, new payers are funded),
// or writes them to SANDBOX_SETTINGS_FILE when set.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { startSandbox, sandboxExecutorEnv } from "./start";

async function main(): Promise<void> {
  const raw = process.env.SANDBOX_PORT ?? process.env.PORT ?? "8090";
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SANDBOX_PORT must be a port number, got "${raw}"`);
  const sandbox = await startSandbox({ port, host: process.env.SANDBOX_HOST ?? "127.0.0.1" });
  const env = Object.entries(sandboxExecutorEnv(sandbox.url, sandbox.control.providers)).filter(([name]) => !name.endsWith("_PRIVATE_KEY"));
  const settings = env.map(([name, value]) => `${name}=${value}`).join("\n");
  const settingsFile = process.env.SANDBOX_SETTINGS_FILE;
  if (settingsFile) {
    // `npm start` keeps its terminal for what a person needs: the settings go to a file.
    mkdirSync(dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, `${settings}\n`);
    console.log(`provider sandbox listening on ${sandbox.url} (executor settings in ${settingsFile})`);
  } else console.log(`provider sandbox listening on ${sandbox.url}\n${settings}`);
  const stop = () => {
    void sandbox.stop().then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
