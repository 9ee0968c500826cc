import { formatProblem } from "./formats";

describe("formatProblem", () => {
  it.each([
    ["email", "ada@example.com"],
    ["email", "Ada Lovelace <ada@mail.example.co.uk>"],
    ["email", '"Ada Lovelace" <ada@example.com>'],
    ["email", "Adà Lövelace <ada@example.com>"],
    ["uri", "https://example.com/docs?x=1"],
    ["date-time", "2025-06-14T09:00:00"],
    ["date-time", "2025-06-14T09:00:00.123Z"],
    ["date-time", "2025-06-14 09:00+05:30"],
    ["date", "2024-02-29"],
    ["iana-timezone", "Europe/Lisbon"],
    ["iana-timezone", "UTC"],
    ["language-tag", "pt-BR"],
    ["country-code", "PT"],
    ["currency-code", "EUR"],
    ["some-future-format", "anything"],
  ])("accepts %s %s", (format, value) => {
    expect(formatProblem(format, value)).toBeUndefined();
  });

  it.each([
    ["email", "ada@"],
    ["email", "ada example.com"],
    ["email", `${"a".repeat(65)}@example.com`],
    // One billed recipient is one recipient: lists, groups and display names that hold separators are refused.
    ["email", "a@x.io, b@x.io, c <c@x.io>"],
    ["email", '"a@x.io, b@x.io" <c@x.io>'],
    ["email", "a@x.io; b@x.io"],
    ["email", "friends: a@x.io, b@x.io;"],
    ["email", '"security@bank.example" <mallory@evil.example>'],
    ["email", "Doe, John <john@example.com>"],
    ["uri", "ftp://example.com/file"],
    ["uri", "/relative/path"],
    ["date-time", "2025-02-30T09:00:00"],
    ["date-time", "2025-06-14T25:00:00"],
    ["date-time", "yesterday"],
    ["date", "2023-02-29"],
    ["iana-timezone", "Mars/Olympus_Mons"],
    ["language-tag", "!!"],
    ["country-code", "XX"],
    ["currency-code", "EURO"],
  ])("rejects %s %s, saying what it expected", (format, value) => {
    expect(formatProblem(format, value)).toMatch(/^must be /);
  });
});
