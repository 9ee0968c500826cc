// Scenario: a completed Idempotency-Key answers its stored result after the catalog changed under it.
// The key is claimed before the execution is planned, so a capability gated since (or a contract
// changed since) is never judged again for a request that already ran; a new key is planned against
// today's catalog. Over real HTTP, with the catalog restarted on other data under the running system.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CATALOG_DIR, startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { waitFor } from "@agentic/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, execute, newUser, settled } from "./execute-helpers";

describe("a replayed Idempotency-Key answers what it answered", () => {
  let sys: BackedSystem;
  let dir: string;
  let restarted: TestCatalog | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "catalog-replay-"));
    cpSync(DEFAULT_CATALOG_DIR, dir, { recursive: true });
    sys = await startBackedSystem({ catalogDir: dir, executorEnv: { CATALOG_REFRESH_MS: "100" } });
  });
  afterAll(async () => {
    await restarted?.stop();
    await sys?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("replays a completed key's result after its capability was gated, and refuses a new key", async () => {
    const user = await newUser(sys, 100);
    const headers = { "idempotency-key": `gated-later-${process.pid}` };
    const first = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers);
    expect(first.status).toBe(200);
    await settled(sys, user.userId);

    // An operator gates email.send: the catalog comes back on the same address with it recommend_only.
    const file = join(dir, "email.yaml");
    const shipped = readFileSync(file, "utf8");
    const [send, rest] = shipped.split("  - key: inbox.buy") as [string, string];
    const gated = `${send
      .replace("    status: live", "    status: recommend_only")
      .replace(/        status: live\n/g, "        status: live\n        executionGated: true\n")}  - key: inbox.buy${rest}`;
    expect(gated).toContain("status: recommend_only");
    writeFileSync(file, gated);
    const address = sys.catalog.address;
    await sys.catalog.stop();
    restarted = await startTestCatalog({ catalogDir: dir, bindAddress: address });
    // An empty body is a 400 while email.send runs, and CAPABILITY_GATED (checked first) once the executor sees the change.
    await waitFor(async () => (await execute(sys, user, "email", "send", {})).body.code === "CAPABILITY_GATED", {
      timeoutMs: 10_000,
      what: "the executor to read the gated catalog",
    });

    const again = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers);
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expect(again.body).toEqual(first.body);
    const fresh = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), { "idempotency-key": `new-${process.pid}` });
    expect([fresh.status, fresh.body.code]).toEqual([409, "CAPABILITY_GATED"]);
    expect(sys.sandbox.control.calls("resend")).toHaveLength(1);
    expect(await balance(sys, user)).toBe(90);
  });
});
