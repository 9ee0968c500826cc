import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { hunterProvider } from "./hunter";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(hunterProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const ctx = { baseUrl: "https://api.hunter.io", credentials: { apiKey: "hk_1" } };

describe("Hunter adapter (enrichment.email.find, enrichment.email.verify)", () => {
  it("asks the email finder by first and last name, else by full name, with the key in X-API-KEY", () => {
    expect(
      adapter.buildRequest("enrichment.email.find", { domain: "stripe.com", firstName: "Patrick", lastName: "Collison" }, ctx),
    ).toEqual({
      method: "GET",
      url: "https://api.hunter.io/v2/email-finder?domain=stripe.com&first_name=Patrick&last_name=Collison",
      headers: { "X-API-KEY": "hk_1" },
    });
    expect(adapter.buildRequest("enrichment.email.find", { domain: "stripe.com", fullName: "Patrick Collison" }, ctx).url).toBe(
      "https://api.hunter.io/v2/email-finder?domain=stripe.com&full_name=Patrick+Collison",
    );
    expect(() => adapter.buildRequest("enrichment.email.find", { domain: "stripe.com", firstName: "Patrick" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", blame: "input" }),
    );
    expect(adapter.buildRequest("enrichment.email.verify", { email: "a+b@stripe.com" }, ctx).url).toBe(
      "https://api.hunter.io/v2/email-verifier?email=a%2Bb%40stripe.com",
    );
  });

  it("maps Hunter's errors: 400 is the caller's, 401 and 429 are ours (429 retryable), 202 is still verifying", () => {
    const errors = (status: number, id: string) => response(status, { errors: [{ id, code: status, details: "x" }] });
    expect(() => adapter.parseResponse("enrichment.email.find", errors(400, "wrong_params"), {})).toThrow(
      expect.objectContaining({ blame: "input", vendorCode: "wrong_params" }),
    );
    expect(() => adapter.parseResponse("enrichment.email.find", errors(401, "authentication_failed"), {})).toThrow(
      expect.objectContaining({ blame: "provider", retryable: false }),
    );
    expect(() => adapter.parseResponse("enrichment.email.verify", errors(429, "too_many_requests"), {})).toThrow(
      expect.objectContaining({ blame: "provider", retryable: true }),
    );
    expect(() => adapter.parseResponse("enrichment.email.verify", response(202, { data: {} }), {})).toThrow(
      expect.objectContaining({ retryable: true, blame: "provider" }),
    );
    expect(() => adapter.parseResponse("enrichment.email.verify", response(200, { meta: {} }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("finds a work email with its confidence and sources on the sandbox", async () => {
    const { result } = await routes.execute("hunter", "direct", "enrichment.email.find", {
      domain: "northwind.example",
      fullName: "Ada Moreau",
    });
    expect(result.data).toMatchObject({
      found: true,
      email: "ada.moreau@northwind.example",
      score: 97,
      position: "VP of Engineering",
      company: "Northwind Labs",
      verificationStatus: "valid",
      sources: [{ domain: "northwind.example", uri: "http://northwind.example/team" }],
    });
  });

  it("says when no email is found", async () => {
    const { result } = await routes.execute("hunter", "direct", "enrichment.email.find", {
      domain: "northwind.example",
      firstName: "Nobody",
      lastName: "Here",
    });
    expect(result.data).toMatchObject({ found: false, email: null, score: null, sources: [] });
  });

  it("verifies deliverable, catch-all, disposable and missing mailboxes on the sandbox", async () => {
    const verify = async (email: string) => (await routes.execute("hunter", "direct", "enrichment.email.verify", { email })).result.data;
    expect(await verify("ada.moreau@northwind.example")).toEqual({
      email: "ada.moreau@northwind.example",
      result: "deliverable",
      vendorStatus: "valid",
      catchAll: false,
      disposable: false,
      freeEmail: false,
      mxFound: true,
      score: 96,
      didYouMean: null,
    });
    expect(await verify("anyone@globex.example")).toMatchObject({ result: "risky", catchAll: true });
    expect(await verify("temp@mailinator.com")).toMatchObject({ result: "risky", disposable: true });
    expect(await verify("ghost@northwind.example")).toMatchObject({ result: "undeliverable", vendorStatus: "invalid" });
  });

  it("reports a rate-limited sandbox as a retryable provider error", async () => {
    routes.sandbox().control.setFault({ provider: "hunter", mode: "fail", status: 429 });
    const err = await routes.executeError("hunter", "direct", "enrichment.email.verify", { email: "ada.moreau@northwind.example" });
    expect(err).toMatchObject({ kind: "http_4xx", status: 429, retryable: true, blame: "provider", vendorCode: "too_many_requests" });
  });
});
