import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { zerobounceProvider } from "./zerobounce";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(zerobounceProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("ZeroBounce adapter (enrichment.email.verify)", () => {
  it("asks /v2/validate with the key and the address as query parameters", () => {
    expect(
      adapter.buildRequest(
        "enrichment.email.verify",
        { email: "a+b@stripe.com" },
        { baseUrl: "https://api.zerobounce.net", credentials: { apiKey: "zb_1" } },
      ),
    ).toEqual({
      method: "GET",
      url: "https://api.zerobounce.net/v2/validate?api_key=zb_1&email=a%2Bb%40stripe.com&ip_address=",
      headers: {},
    });
  });

  it("treats ZeroBounce's 200 {error} as our account's problem (another route may answer), and 5xx as retryable", () => {
    expect(() =>
      adapter.parseResponse("enrichment.email.verify", response(200, { error: "Invalid API key or your account ran out of credits" }), {}),
    ).toThrow(expect.objectContaining({ kind: "invalid_response", blame: "provider", retryable: false }));
    expect(() => adapter.parseResponse("enrichment.email.verify", response(503, { error: "busy" }), {})).toThrow(
      expect.objectContaining({ kind: "http_5xx", retryable: true }),
    );
    expect(() => adapter.parseResponse("enrichment.email.verify", response(200, { address: "a@b.co" }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("verifies addresses on the sandbox: valid, catch-all, disposable, typo with a suggestion", async () => {
    const verify = async (email: string) =>
      (await routes.execute("zerobounce", "direct", "enrichment.email.verify", { email })).result.data;
    expect(await verify("ada.moreau@northwind.example")).toEqual({
      email: "ada.moreau@northwind.example",
      result: "deliverable",
      vendorStatus: "valid",
      catchAll: false,
      disposable: false,
      freeEmail: false,
      mxFound: true,
      score: null,
      didYouMean: null,
    });
    expect(await verify("anyone@globex.example")).toMatchObject({ result: "risky", catchAll: true, vendorStatus: "catch-all" });
    expect(await verify("temp@mailinator.com")).toMatchObject({
      result: "risky",
      disposable: true,
      vendorStatus: "do_not_mail/disposable",
    });
    expect(await verify("ada@gmial.com")).toMatchObject({ result: "undeliverable", didYouMean: "ada@gmail.com", mxFound: false });
    expect(await verify("someone@gmail.com")).toMatchObject({ result: "deliverable", freeEmail: true });
  });

  it("gets ZeroBounce's 200 {error} from the sandbox for a wrong key, and makes it a provider fault", async () => {
    const provider = routes.registry().get("zerobounce", "direct");
    if (!provider) throw new Error("zerobounce is not configured on direct");
    const req = adapter.buildRequest(
      "enrichment.email.verify",
      { email: "ada.moreau@northwind.example" },
      {
        ...provider.ctx,
        credentials: { apiKey: "wrong" },
      },
    );
    const res = await fetch(req.url);
    const body: unknown = await res.json();
    expect([res.status, body]).toEqual([200, { error: "Invalid API key or your account ran out of credits" }]);
    expect(() => adapter.parseResponse("enrichment.email.verify", response(res.status, body), {})).toThrow(
      expect.objectContaining({ blame: "provider" }),
    );
  });
});
