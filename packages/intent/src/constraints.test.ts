// Constraints read from a task's words: goals in order, price caps in every unit, a provider pin, and
// the matched capability's fields by format and name.
import type { IntentDocument, IntentField } from "./documents";
import { extractConstraints, ProviderNames, withoutConstraintWords } from "./constraints";

const providers = new ProviderNames([
  { key: "postmark", label: "Postmark" },
  { key: "resend", label: "Resend" },
  { key: "googlemaps", label: "Google Maps Platform" },
  { key: "sendgrid", label: "Twilio SendGrid" },
]);

const docWith = (...fields: IntentField[]) => ({ fields }) as unknown as IntentDocument;

describe("extractConstraints", () => {
  it("reads goals in the order the task names them", () => {
    expect(
      extractConstraints("the fastest and cheapest route, most reliable please", undefined, providers).optimizationPreferences,
    ).toEqual(["speed", "cost", "reliability"]);
    expect(extractConstraints("best quality render", undefined, providers).optimizationPreferences).toEqual(["quality"]);
    expect(extractConstraints("send an email", undefined, providers).optimizationPreferences).toEqual([]);
  });

  it("turns a price cap in credits, cents or dollars into credits (1000 credits = 1 USD), and ignores a bare number", () => {
    const cap = (task: string) => extractConstraints(task, undefined, providers).maxPriceCredits;
    expect(cap("under 20 credits")).toBe(20);
    expect(cap("for less than 5 cents")).toBe(50);
    expect(cap("at most $0.10")).toBe(100);
    expect(cap("no more than 2 dollars")).toBe(2000);
    expect(cap("30 credits max")).toBe(30);
    expect(cap("under 20 words")).toBeUndefined();
    expect(cap("a summary under 20")).toBeUndefined();
  });

  it("pins a provider named after via, through, using or with, by key or label, and not a bare verb", () => {
    expect(extractConstraints("send it via Postmark", undefined, providers).provider).toBe("postmark");
    expect(extractConstraints("find cafes using Google Maps", undefined, providers).provider).toBe("googlemaps");
    expect(extractConstraints("email through SendGrid", undefined, providers).provider).toBe("sendgrid");
    expect(extractConstraints("resend the invoice to Ana", undefined, providers).provider).toBeUndefined();
  });

  it("fills the top match's fields the words give, by format and by name", () => {
    const email = docWith(
      { name: "to", type: "string", format: "email", required: true },
      { name: "from", type: "string", format: "email" },
    );
    expect(extractConstraints("tell ana@example.com the invoice is attached", email, providers).fields).toEqual({ to: "ana@example.com" });
    const fx = docWith(
      { name: "base", type: "string", format: "currency-code" },
      { name: "quote", type: "string", format: "currency-code" },
    );
    expect(extractConstraints("EUR to USD rate", fx, providers).fields).toEqual({ base: "EUR", quote: "USD" });
    const quote = docWith({ name: "symbol", type: "string", required: true });
    expect(extractConstraints("what is AAPL trading at", quote, providers).fields).toEqual({ symbol: "AAPL" });
    expect(extractConstraints("how is the ETF doing", quote, providers).fields).toEqual({});
    const time = docWith({ name: "timezone", type: "string", format: "iana-timezone" });
    expect(extractConstraints("time in america/new_york now", time, providers).fields).toEqual({ timezone: "America/New_York" });
    const translate = docWith({ name: "targetLanguage", type: "string", format: "language-tag", required: true });
    expect(extractConstraints("translate this into German", translate, providers).fields).toEqual({ targetLanguage: "de" });
    const company = docWith({ name: "domain", type: "string", required: true });
    expect(extractConstraints("firmographics for stripe.com", company, providers).fields).toEqual({ domain: "stripe.com" });
    expect(extractConstraints("tell ana@example.com hello", undefined, providers).fields).toEqual({});
  });

  it("leaves the constraint words out of what is searched", () => {
    const left = withoutConstraintWords("send an email, cheapest, under 20 credits");
    expect(left).toMatch(/^send an email/);
    expect(left).not.toMatch(/cheapest|credits|20/);
  });
});
