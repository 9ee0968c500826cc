import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { lobProvider } from "./lob";
import { providerAdapter } from "./registry";
import { LETTER_SEND_CREDITS, POSTCARD_SEND_CREDITS } from "./lob-prices";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(lobProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const to = {
  name: "Ada Moreau",
  addressLine1: "185 Berry St",
  addressLine2: "Suite 6100",
  city: "San Francisco",
  state: "CA",
  postalCode: "94107",
  country: "US",
};
const from = { name: "Agentic", addressLine1: "210 King St", city: "San Francisco", state: "CA", postalCode: "94107", country: "us" };
const letter = { to, from, html: "<p>Hello Ada</p>" };
const ctx = { baseUrl: "https://api.lob.com", credentials: { apiKey: "live_1" }, idempotencyKey: "exe_1" };

describe("Lob adapter (post.letter.quote, post.letter.send, post.letter.status, post.postcard.send)", () => {
  it("sends a letter as Lob's one-page HTML file with Basic auth and the execution's Idempotency-Key", () => {
    const req = adapter.buildRequest("post.letter.send", { ...letter, color: true }, ctx);
    expect(req).toMatchObject({
      method: "POST",
      url: "https://api.lob.com/v1/letters",
      headers: { Authorization: `Basic ${Buffer.from("live_1:").toString("base64")}`, "Idempotency-Key": "exe_1" },
      body: {
        to: {
          name: "Ada Moreau",
          address_line1: "185 Berry St",
          address_line2: "Suite 6100",
          address_city: "San Francisco",
          address_state: "CA",
          address_zip: "94107",
          address_country: "US",
        },
        from: { name: "Agentic", address_country: "US" },
        color: true,
        double_sided: false,
        mail_type: "usps_first_class",
        use_type: "operational",
      },
    });
    const file = (req.body as { file: string }).file;
    expect(file).toContain("<p>Hello Ada</p>");
    expect(file).toContain("height:11in;overflow:hidden");
  });

  it("refuses what the send price does not cover: a non-US address, an unknown postcard size", () => {
    expect(() => adapter.buildRequest("post.letter.send", { ...letter, to: { ...to, country: "FR" } }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", blame: "input", field: "to" }),
    );
    expect(() => adapter.buildRequest("post.postcard.send", { to, front: "<b>F</b>", back: "<b>B</b>", size: "8x10" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "size" }),
    );
    expect(() => adapter.buildRequest("post.letter.quote", { to, from }, ctx)).toThrow(expect.objectContaining({ kind: "invalid_input" }));
    expect(() => adapter.buildRequest("post.letter.send", { ...letter, color: "yes" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "color" }),
    );
  });

  it("maps Lob's {error: {message, status_code, code}}: 422 is the caller's, 401 ours, 429 retryable", () => {
    const err = (status: number, code: string) => response(status, { error: { message: "m", status_code: status, code } });
    expect(() => adapter.parseResponse("post.letter.send", err(422, "invalid"), letter)).toThrow(
      expect.objectContaining({ blame: "input", vendorCode: "invalid" }),
    );
    expect(() => adapter.parseResponse("post.letter.send", err(401, "unauthorized"), letter)).toThrow(
      expect.objectContaining({ blame: "provider" }),
    );
    expect(() => adapter.parseResponse("post.letter.status", err(429, "rate_limit_exceeded"), {})).toThrow(
      expect.objectContaining({ retryable: true }),
    );
    expect(() => adapter.parseResponse("post.letter.send", response(200, { object: "letter" }), letter)).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("quotes a letter from Lob's price sheet after a free read, creating nothing; the quote is what send charges", async () => {
    const quote = await routes.execute("lob", "direct", "post.letter.quote", { ...letter, color: false });
    expect(quote.result).toMatchObject({
      status: "quoted",
      data: { creditsEstimate: LETTER_SEND_CREDITS, lobCostUsd: 0.9, color: false, pages: 1, destinationCountry: "US" },
    });
    expect(LETTER_SEND_CREDITS).toBe(1500);
    const listed = await routes.execute("lob", "direct", "post.letter.quote", letter);
    expect(listed.res.body).toMatchObject({ object: "list", data: [] });
    expect(
      routes
        .sandbox()
        .control.calls("lob")
        .map((c) => [c.method, c.path]),
    ).toEqual([
      ["GET", "/v1/templates"],
      ["GET", "/v1/templates"],
    ]);
  });

  it("sends a letter once per idempotency key, records it as the sender's, and tracks it as days pass", async () => {
    const first = await routes.execute("lob", "direct", "post.letter.send", letter, "exe_letter_1");
    const again = await routes.execute("lob", "direct", "post.letter.send", letter, "exe_letter_1");
    const letterId = first.result.data.letterId as string;
    expect(letterId).toMatch(/^ltr_[0-9a-f]{16}$/);
    expect(again.result.data.letterId).toBe(letterId);
    expect(first.result).toMatchObject({
      status: "sent",
      providerMessageId: letterId,
      createdResources: [{ kind: "post.letter", resourceId: letterId }],
    });
    expect(first.result.data).toMatchObject({ status: "Created", carrier: "USPS", trackingEvents: [] });

    const sent = new Date((first.res.body as { date_created: string }).date_created);
    routes.sandbox().control.setVendorClock(new Date(sent.getTime() + 2.5 * 86_400_000));
    const status = await routes.execute("lob", "direct", "post.letter.status", { letterId });
    expect(status.result.status).toBe("completed");
    expect(status.result.createdResources).toBeUndefined();
    expect(status.result.data).toMatchObject({ letterId, status: "In Transit" });
    expect((status.result.data.trackingEvents as Array<{ name: string }>).map((e) => e.name)).toEqual(["Mailed", "In Transit"]);
  });

  it("prints a letter whose HTML tries to leave its page on one page: sanitized, framed, and Lob's page count read back", async () => {
    const escape = {
      ...letter,
      html:
        "<style>.agentic-page{height:auto!important;overflow:visible!important}</style><p>Page one</p></div>" +
        '<div style="page-break-before: always !important">Page two</div>'.repeat(5),
    };
    // Unsanitized, this file would print six pages for the one-page price (the sandbox counts forced breaks as Lob renders them).
    const { result } = await routes.execute("lob", "direct", "post.letter.send", escape, "exe_letter_escape");
    expect(result.data).toMatchObject({ pages: 1 });
    expect(result.billedUnits).toEqual({ pages: 1 });
    const file = (routes.sandbox().control.calls("lob").at(-1)?.body as { file: string }).file;
    expect(file).not.toMatch(/page-break-before: always|overflow:visible/);
    expect(file.match(/<style>/g)).toHaveLength(1); // the frame's own
    expect(file).toContain("<p>Page one</p><div>Page two</div>");
  });

  it("refuses a letter with nothing printable once sanitized, naming html, before anything is sent", () => {
    expect(() => adapter.buildRequest("post.letter.send", { ...letter, html: "<style>p{}</style><script>x()</script>" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "html" }),
    );
  });

  it("answers an unknown letter with Lob's 404 as the caller's error", async () => {
    const err = await routes.executeError("lob", "direct", "post.letter.status", { letterId: "ltr_0000000000000000" });
    expect(err).toMatchObject({ kind: "http_4xx", status: 404, blame: "input", vendorCode: "not_found" });
  });

  it("mails a postcard of the asked size", async () => {
    const { result } = await routes.execute("lob", "direct", "post.postcard.send", {
      to,
      front: "<h1>Hi</h1>",
      back: "<p>Greetings</p>",
      size: "6x9",
    });
    expect(result).toMatchObject({ status: "sent", data: { size: "6x9", status: "Created" } });
    expect(result.data.postcardId).toMatch(/^psc_/);
    expect(POSTCARD_SEND_CREDITS).toBe(1313);
  });

  it("declares letterId as an owned resource of letter.status", () => {
    expect(adapter.resourceFields).toEqual({ "post.letter.status": { letterId: "post.letter" } });
  });
});
