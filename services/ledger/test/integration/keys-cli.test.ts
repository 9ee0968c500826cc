// scripts/keys.mjs against a running ledger, as a child process: create → the key authenticates;
// revoke → it no longer does; limits → AuthenticateApiKey returns them; clear errors when the ledger
// cannot be reached; only the admin identity's key (ADMIN_IDENTITY_KEY) is accepted by the ledger.
import { generateIdentityKeys } from "@agentic/platform";
import { freePort, testIdentities } from "@agentic/testing";
import { remoteError, runScript, uid, useNatsServer, useTestLedger } from "../support";

const keys = (addr: string, ...args: string[]) => runScript("keys.mjs", addr, args);
const keysWith = (adminKey: string, addr: string, ...args: string[]) => runScript("keys.mjs", addr, args, adminKey);

const nats = useNatsServer();
const ledger = useTestLedger(nats);

describe("npm run keys", () => {
  it("create prints the key once; it authenticates; revoke makes it INVALID_API_KEY", async () => {
    const t = ledger();
    const userId = uid("user");

    const created = await keys(t.address, "create", "--user", userId, "--name", "cli test");
    expect(created.code).toBe(0);
    const apiKey = created.stdout.match(/aak_[0-9A-Za-z]{32}/)?.[0] ?? "";
    expect(apiKey).not.toBe("");
    expect(created.stdout.match(/aak_[0-9A-Za-z]{32}/g)).toHaveLength(1);
    expect(created.stdout).toMatch(/only time the key is shown/);
    const { keyId } = await t.client.authenticateApiKey({ apiKey });
    expect(created.stdout).toContain(keyId);

    const listed = await keys(t.address, "list", "--user", userId, "--json");
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ keyId, userId, name: "cli test", prefix: apiKey.slice(0, 8) })]);
    expect(listed.stdout).not.toContain(apiKey);

    const revoked = await keys(t.address, "revoke", keyId);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked ${keyId}`);
    await expect(remoteError(t.client.authenticateApiKey({ apiKey }))).resolves.toMatchObject({ code: "INVALID_API_KEY" });
    expect((await keys(t.address, "list", "--user", userId)).stdout).toContain("REVOKED");
  });

  it("create --json gives machine-readable output", async () => {
    const t = ledger();
    const out = await keys(t.address, "create", "--user", uid("user"), "--json");
    const parsed = JSON.parse(out.stdout);
    expect(parsed.apiKey).toMatch(/^aak_/);
    await expect(t.client.authenticateApiKey({ apiKey: parsed.apiKey })).resolves.toMatchObject({ keyId: parsed.keyId });
  });

  it("create --agent issues a key for one agent and --agents one requiring one of several, names normalized; both at once is a usage error", async () => {
    const t = ledger();
    const userId = uid("user");
    const one = await keys(t.address, "create", "--user", userId, "--agent", "Alpha\u200B");
    expect(one).toMatchObject({ code: 0, stdout: expect.stringContaining(", issued for agent alpha:") });
    const oneKey = one.stdout.match(/aak_[0-9A-Za-z]{32}/)?.[0] ?? "";
    await expect(t.client.authenticateApiKey({ apiKey: oneKey })).resolves.toMatchObject({ agentName: "alpha" });

    const some = JSON.parse((await keys(t.address, "create", "--user", userId, "--agents", "alpha, BETA", "--json")).stdout);
    expect(some).toMatchObject({ agentNames: ["alpha", "beta"] });
    const auth = await t.client.authenticateApiKey({ apiKey: some.apiKey });
    expect(auth.agentNames?.names).toEqual(["alpha", "beta"]);
    expect(auth.agentName).toBeUndefined();
    expect((await keys(t.address, "list", "--user", userId)).stdout).toMatch(/agent=alpha[\s\S]*agents=alpha,beta/);

    await expect(keys(t.address, "create", "--user", userId, "--agent", "a", "--agents", "b")).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("not both"),
    });
    await expect(keys(t.address, "create", "--user", userId, "--agent", "\u200B")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("agent_name must be 1 to 100 characters"),
    });
  });

  it("limits sets a key's limits (exactly those given), shows them, and --clear gives the key the defaults again", async () => {
    const t = ledger();
    const created = await t.client.createApiKey({ userId: uid("user"), name: "" });
    const keyId = created.key!.keyId;
    const apiKey = created.apiKey;

    const set = await keys(t.address, "limits", "--key", keyId, "--rps", "2", "--burst", "5", "--in-flight", "3");
    expect(set).toMatchObject({
      code: 0,
      stdout: `${keyId} (${apiKey.slice(0, 8)}..., user ${created.key!.userId}): 2 requests/s, burst 5, in flight 3\n`,
    });
    await expect(t.client.authenticateApiKey({ apiKey })).resolves.toMatchObject({
      keyId,
      limits: { requestsPerSecond: 2, burst: 5, maxInFlight: 3 },
    });

    // Setting again replaces: the limits left out are the gateway's defaults.
    const replaced = await keys(t.address, "limits", "--key", keyId, "--in-flight", "1", "--json");
    expect(replaced.code).toBe(0);
    expect(JSON.parse(replaced.stdout)).toMatchObject({ keyId, limits: { maxInFlight: 1 } });
    expect(JSON.parse(replaced.stdout).limits).toEqual({ maxInFlight: 1 });
    await expect(keys(t.address, "limits", "--key", keyId)).resolves.toMatchObject({
      code: 0,
      stdout: expect.stringContaining("default requests/s, burst default, in flight 1"),
    });
    expect((await keys(t.address, "list", "--user", created.key!.userId)).stdout).toContain(
      "limits: default requests/s, burst default, in flight 1",
    );

    const cleared = await keys(t.address, "limits", "--key", keyId, "--clear");
    expect(cleared).toMatchObject({ code: 0, stdout: expect.stringContaining("the gateway's defaults") });
    expect((await t.client.authenticateApiKey({ apiKey })).limits).toBeUndefined();
  });

  it("explains usage mistakes and the ledger's refusals", async () => {
    const t = ledger();
    await expect(keys(t.address, "create")).resolves.toMatchObject({ code: 2, stderr: expect.stringContaining("create needs --user") });
    await expect(keys(t.address, "frobnicate")).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command "frobnicate"'),
    });
    await expect(keys(t.address, "revoke", "key_missing")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("API_KEY_NOT_FOUND"),
    });
    await expect(keys(t.address, "create", "--user", "has space")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("INVALID_ARGUMENT"),
    });
    await expect(keys(t.address, "limits", "--rps", "2")).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("limits needs --key"),
    });
    await expect(keys(t.address, "limits", "--key", "key_x", "--rps", "fast")).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--rps needs a whole number"),
    });
    await expect(keys(t.address, "limits", "--key", "key_x", "--rps", "2", "--clear")).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("not both"),
    });
    await expect(keys(t.address, "limits", "--key", "key_missing", "--rps", "2")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("API_KEY_NOT_FOUND"),
    });
    await expect(keys(t.address, "limits", "--key", "key_missing")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("API_KEY_NOT_FOUND"),
    });
    const { key } = await t.client.createApiKey({ userId: uid("user"), name: "" });
    await expect(keys(t.address, "limits", "--key", key!.keyId, "--rps", "0")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("limits.requests_per_second must be a whole number from 1 to 10000"),
    });
  });

  it("is refused by the ledger with any key but the admin's", async () => {
    const t = ledger();
    // Another service's key signs as admin with the wrong key; a fresh key is trusted by nobody.
    for (const key of [testIdentities().privateKeys.gateway, generateIdentityKeys().privateKey]) {
      const out = await keysWith(key, t.address, "create", "--user", uid("user"));
      expect(out).toMatchObject({ code: 1, stderr: expect.stringContaining("SERVICE_IDENTITY_INVALID") });
    }
    await expect(keysWith("not-a-key", t.address, "list")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("ADMIN_IDENTITY_KEY is not an Ed25519 private key"),
    });
  });

  it("says clearly when the ledger is not reachable", async () => {
    const out = await keys(`127.0.0.1:${await freePort()}`, "list");
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/not reachable at 127\.0\.0\.1:\d+ \(UNAVAILABLE\)\. Start it \(`npm start`\) or set LEDGER_ADDR/);
  });
});
