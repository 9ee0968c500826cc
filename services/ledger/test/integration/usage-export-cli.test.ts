// `npm run ledger -- usage export` (scripts/ledger.mjs) against a running ledger, as a child process
// signed as admin: every page of a user's usage, newest first, each item once, as JSON lines or CSV,
// with the filters of ListUsage.
import { SettlementKind, publishSettlement } from "../harness";
import { runScript, uid, useNatsServer, useTestLedger } from "../support";

const cli = (addr: string, ...args: string[]) => runScript("ledger.mjs", addr, args);

const nats = useNatsServer();
const ledger = useTestLedger(nats);
const BASE = Date.parse("2020-03-01T00:00:00Z");

describe("npm run ledger -- usage export", () => {
  it("streams every page as JSON lines or CSV, newest first, each item once, filtered like GET /usage", async () => {
    const t = ledger();
    const userId = uid("user");
    await t.client.recordCreditMovement({
      kind: "grant",
      userId,
      amountCredits: 10_000,
      reason: 'welcome, "founder" plan',
      reference: uid("ref"),
      operatorName: "ada",
    });
    // 230 charges, one a second from BASE: three pages of 100 with the grant.
    const holdIds = Array.from({ length: 230 }, () => uid("att"));
    await Promise.all(
      holdIds.map((holdId) =>
        t.client.holdCredits({ holdId, userId, amountCredits: 3, ttlMs: 0, routeKey: "geo.time.current.timeapi.mpp" }),
      ),
    );
    await Promise.all(
      holdIds.map((holdId, i) =>
        publishSettlement(t.nc, {
          holdId,
          userId,
          kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
          capturedCredits: 2,
          usage: {
            usageId: `use_${i}`,
            createdAt: new Date(BASE + i * 1_000),
            capabilityKey: i % 2 ? "geo.time.current" : "geo.time.convert",
            agentName: i === 0 ? "=HYPERLINK(1)" : "scout",
            status: "succeeded",
            traceId: "t",
          },
        }),
      ),
    );
    await Promise.all(holdIds.map((holdId) => t.waitForSettlement(holdId)));

    const jsonl = await cli(t.address, "usage", "export", "--user", userId, "--format", "jsonl");
    expect(jsonl).toMatchObject({ code: 0, stderr: "" });
    const items = jsonl.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(items).toHaveLength(231);
    expect(new Set(items.map((i) => i.id)).size).toBe(231);
    expect(items.slice(1).map((i) => i.id)).toEqual(holdIds.map((_, i) => `use_${i}`).reverse());
    expect(items[0]).toMatchObject({
      kind: "grant",
      amountCredits: 10_000,
      creditsCharged: 0,
      reason: 'welcome, "founder" plan',
      operator: "admin",
      operatorName: "ada",
    });
    expect(items[230]).toEqual({
      kind: "charge",
      id: "use_0",
      createdAt: new Date(BASE).toISOString(),
      creditsCharged: 2,
      capabilityKey: "geo.time.convert",
      status: "succeeded",
      durationMs: 0,
      agentName: "=HYPERLINK(1)",
      traceId: "t",
      holdId: holdIds[0],
    });

    // Filters: [from, to) as UTC days or RFC 3339 times, kind, capability, agent.
    const ids = async (...filters: string[]) => {
      const out = await cli(t.address, "usage", "export", "--user", userId, "--format", "jsonl", ...filters);
      expect(out.stderr).toBe("");
      return out.stdout
        ? out.stdout
            .trimEnd()
            .split("\n")
            .map((line) => JSON.parse(line).id as string)
        : [];
    };
    await expect(ids("--from", new Date(BASE + 228_000).toISOString(), "--to", "2020-03-02")).resolves.toEqual(["use_229", "use_228"]);
    await expect(ids("--to", "2020-03-01T00:00:02Z")).resolves.toEqual(["use_1", "use_0"]);
    await expect(ids("--kind", "grant")).resolves.toHaveLength(1);
    await expect(ids("--capability", "geo.time.current", "--from", "2020-03-01T00:03:40Z")).resolves.toEqual([
      "use_229",
      "use_227",
      "use_225",
      "use_223",
      "use_221",
    ]);
    await expect(ids("--agent", "=HYPERLINK(1)")).resolves.toEqual(["use_0"]);

    const csv = await cli(t.address, "usage", "export", "--user", userId, "--format", "csv");
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(232);
    expect(lines[0]).toBe(
      "kind,id,createdAt,amountCredits,creditsCharged,reference,reason,operator,operatorName,productKey,capabilityKey,routeKey,provider,networkKey,status,durationMs,agentName,errorCode,traceId,holdId,inputTokens,outputTokens",
    );
    expect(lines[1]).toMatch(/^grant,jrn_\w+,\d{4}-[^,]+,10000,0,[^,]+,"welcome, ""founder"" plan",admin,ada,/);
    // A user's text that a spreadsheet would run as a formula is quoted as text.
    expect(lines[231]).toContain(",'=HYPERLINK(1),");
  });

  it("explains usage mistakes and the ledger's refusals", async () => {
    const t = ledger();
    expect(await cli(t.address, "usage", "export", "--format", "csv")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("needs --user"),
    });
    expect(await cli(t.address, "usage", "export", "--user", "u1", "--format", "xml")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--format jsonl or --format csv"),
    });
    expect(await cli(t.address, "usage", "list", "--user", "u1", "--format", "csv")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("export"),
    });
    expect(await cli(t.address, "usage", "export", "--user", "u1", "--format", "csv", "--from", "yesterday")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--from must be"),
    });
    expect(await cli(t.address, "usage", "export", "--user", "u1", "--format", "csv", "--kind", "bonus")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("INVALID_ARGUMENT"),
    });
    expect(
      await cli(t.address, "usage", "export", "--user", "u1", "--format", "csv", "--from", "2030-01-02", "--to", "2030-01-01"),
    ).toMatchObject({ code: 1, stderr: expect.stringContaining("to must be after from") });
  });
});
