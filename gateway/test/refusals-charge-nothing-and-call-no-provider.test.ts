// Scenario: an agent sends a string of bad or forbidden executes. Each is refused with a clear 4xx,
// and afterwards nothing was held or charged, no provider was called, and no usage was recorded.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, execute, expectBalanceEqualsJournal, journalKinds, newUser, usage } from "./execute-helpers";

describe("refusals charge nothing and call no provider", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());

  it("leaves the wallet, the journal, the usage list and every provider untouched", async () => {
    const user = await newUser(sys, 50);
    const attempts: Array<[string, string, unknown, number, string]> = [
      ["email", "send", emailBody({ to: "nobody" }), 400, "INVALID_INPUT"],
      ["email", "send", { to: "ada@example.com", subject: "no body" }, 400, "INVALID_INPUT"],
      ["email", "send", emailBody({ trackOpens: true }), 400, "INVALID_INPUT"],
      ["email", "send", emailBody({ provider: "mailgun" }), 400, "UNKNOWN_PROVIDER"],
      [
        "models",
        "chat-complete",
        { model: "deepseek-chat", messages: [{ role: "user", content: "hi" }], max_tokens: 0 },
        400,
        "INVALID_INPUT",
      ],
      ["text", "analyze", { text: "gated on purpose" }, 409, "CAPABILITY_GATED"],
      ["media", "video-generate", { prompt: "planned, not executable yet" }, 409, "CAPABILITY_GATED"],
      ["email", "inbox-buy", { username: "too-expensive" }, 402, "CREDITS_REQUIRED"],
    ];
    for (const [domain, id, body, status, code] of attempts) {
      const res = await execute(sys, user, domain, id, body);
      expect([domain, id, res.status, res.body.code]).toEqual([domain, id, status, code]);
    }
    expect(sys.sandbox.control.calls()).toEqual([]);
    expect(await balance(sys, user)).toBe(50);
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
    expect(await usage(sys, user)).toEqual([]);
    await expectBalanceEqualsJournal(sys, user);
  });
});
