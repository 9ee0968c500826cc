// The real ledger process (dist/main.js) refuses to start in production with LEDGER_STORE=memory (SQLite in memory), which
// would lose every balance on restart: it exits 1 naming the reason, before it opens anything.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { testIdentities } from "@agentic/testing";

const MAIN = join(__dirname, "../../dist/main.js");

it("exits 1 with APP_ENV=production and LEDGER_STORE=memory", async () => {
  const env = {
    PATH: process.env.PATH,
    APP_ENV: "production",
    LEDGER_STORE: "memory",
    NATS_URL: "nats://127.0.0.1:1",
    NATS_USER: "ledger",
    NATS_PASSWORD: "unused",
    TRUSTED_SERVICE_KEYS: testIdentities().trustedKeys,
  };
  const failure = await promisify(execFile)(process.execPath, [MAIN], { env, timeout: 20_000 }).then(
    () => undefined,
    (err: { code: number; stderr: string }) => err,
  );
  expect(failure).toMatchObject({ code: 1, stderr: expect.stringContaining("LEDGER_STORE: memory is for tests only") });
});
