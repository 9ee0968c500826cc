// Money in, as an operator does it in production (APP_ENV=production: no /dev/init), with the real
// processes of `npm start` started the way an operator tries production mode on one machine
// (`APP_ENV=production LEDGER_STORE=sqlite AGENTIC_API_KEYS=... npm start`, nothing else): the API
// serves, takes no top-ups (none configured; the sandbox's testnet facilitator is development's only),
// and the admin CLIs fund a user: a key (`npm run keys`), credits granted on the record (`npm run
// ledger -- credits grant`), an execute through the gateway, and the user's usage showing the grant
// and the charge. The same grant retried with its reference is one grant.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { waitFor } from "@agentic/testing";
import { REPO_ROOT, startSystem, type RunningSystem } from "./support/system";

const run = promisify(execFile);

describe("an operator funds a new user's wallet in production", () => {
  let sys: RunningSystem;
  /** Runs an admin CLI of scripts/ against the running ledger, signed with this system's admin identity. */
  const cli = async (script: "keys" | "ledger", ...args: string[]) => {
    const env = { ...process.env, LEDGER_ADDR: `127.0.0.1:${sys.ports.ledger!.port}`, ADMIN_IDENTITY_KEY: sys.adminIdentityKey };
    const { stdout } = await run(process.execPath, [join(REPO_ROOT, "scripts", `${script}.mjs`), ...args], { env, timeout: 20_000 });
    return stdout;
  };

  /** The operator's own bootstrap key (production makes none up). */
  const operatorKey = `aak_${randomBytes(30).toString("hex")}`;

  beforeAll(async () => {
    // Production with the SQLite store said explicitly (production defaults to MongoDB), and a key of the operator's.
    sys = await startSystem({ APP_ENV: "production", LEDGER_STORE: "sqlite", AGENTIC_API_KEYS: `${operatorKey}:operator` });
  }, 60_000);
  afterAll(() => sys?.stop());

  it("serves the API with the operator's key, and takes no top-ups that were not configured", async () => {
    expect(sys.apiKey).toBe(operatorKey);
    const headers = { authorization: `Bearer ${operatorKey}`, "content-type": "application/json" };
    const wallet = await fetch(`${sys.baseUrl}/wallet`, { headers });
    expect({ status: wallet.status, body: await wallet.json() }).toMatchObject({ status: 200, body: { balanceCredits: 0 } });
    expect((await fetch(`${sys.baseUrl}/domains`)).status).toBe(200);
    const topUp = await fetch(`${sys.baseUrl}/wallet/top-up`, { method: "POST", headers, body: JSON.stringify({ amountCredits: 1000 }) });
    expect({ status: topUp.status, body: await topUp.json() }).toMatchObject({ status: 503, body: { code: "TOP_UP_UNAVAILABLE" } });
    // /metrics is on a port of the gateway's own in production, never on the public one.
    expect((await fetch(`${sys.origin}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${sys.ports.gateway!.metricsPort}/metrics`)).status).toBe(200);
  });

  it("grants with the CLI, the user executes, and GET /usage shows the grant and the charge; a retried grant is one grant", async () => {
    const userId = `customer-${Date.now()}`;
    const json = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
    expect((await fetch(`${sys.baseUrl}/dev/init`, { method: "POST", headers: json(sys.apiKey), body: "{}" })).status).toBe(404);

    const { apiKey } = JSON.parse(await cli("keys", "create", "--user", userId, "--name", "first key", "--json")) as { apiKey: string };
    const poor = await fetch(`${sys.baseUrl}/domains/geo/capabilities/time-current/execute`, {
      method: "POST",
      headers: json(apiKey),
      body: JSON.stringify({ timezone: "Asia/Tokyo" }),
    });
    expect(poor.status).toBe(402);

    const grant = [
      "credits",
      "grant",
      "--user",
      userId,
      "--amount",
      "50",
      "--reason",
      "Welcome credit for the pilot",
      "--reference",
      `pilot-${userId}`,
      "--by",
      "ada",
      "--json",
    ];
    const first = JSON.parse(await cli("ledger", ...grant));
    expect(first).toMatchObject({
      replayed: false,
      wallet: { balanceCredits: 50 },
      entry: { kind: "grant", operator: "admin", operatorName: "ada" },
    });

    const exec = await fetch(`${sys.baseUrl}/domains/geo/capabilities/time-current/execute`, {
      method: "POST",
      headers: { ...json(apiKey), "agent-name": "pilot_agent" },
      body: JSON.stringify({ timezone: "Asia/Tokyo" }),
    });
    const executed = (await exec.json()) as { creditsCharged: number };
    expect(exec.status).toBe(200);

    // The same grant again (a retried command, a second operator): recorded once.
    const again = JSON.parse(await cli("ledger", ...grant));
    expect(again).toMatchObject({ replayed: true, entry: { entryId: first.entry.entryId } });

    // The charge reaches the usage once its capture is applied (the executor settles over JetStream, in another process).
    let items: Array<Record<string, unknown>> = [];
    await waitFor(
      async () => {
        items = ((await (await fetch(`${sys.baseUrl}/usage`, { headers: json(apiKey) })).json()) as { items: typeof items }).items;
        return items.some((i) => i.kind === "charge");
      },
      { timeoutMs: 10_000, what: "the execution's charge in the user's usage" },
    );
    expect(items).toEqual([
      expect.objectContaining({
        kind: "charge",
        capabilityKey: "geo.time.current",
        agentName: "pilot_agent",
        status: "succeeded",
        creditsCharged: executed.creditsCharged,
      }),
      {
        id: first.entry.entryId,
        kind: "grant",
        createdAt: first.entry.createdAt,
        creditsCharged: 0,
        amountCredits: 50,
        reference: `pilot-${userId}`,
        reason: "Welcome credit for the pilot",
      },
    ]);
    const wallet = (await (await fetch(`${sys.baseUrl}/wallet`, { headers: json(apiKey) })).json()) as { balanceCredits: number };
    expect(wallet.balanceCredits).toBe(50 - executed.creditsCharged);
    await expect(fetch(`${sys.baseUrl}/usage?kind=grant`, { headers: json(apiKey) }).then((r) => r.json())).resolves.toMatchObject({
      items: [{ kind: "grant" }],
      nextCursor: null,
    });
  });
});
