// Hunter (API v2, `X-API-KEY` header):
// - enrichment.email.find: GET /v2/email-finder?domain=&first_name=&last_name= (or full_name=) →
//   {data: {email (null: none found), score, position, company, sources[], verification}, meta};
// - enrichment.email.verify: GET /v2/email-verifier?email= → {data: {status, result, score, accept_all,
//   disposable, webmail, mx_records, ...}}; 202 while Hunter is still checking (retry later).
// Errors {errors: [{id, code, details}]}; 429 when over the rate limit.
import type { RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import { ProviderError, type ProviderContext } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import type { DeliverabilityResult, EmailVerification } from "./email-verification";

const KEY = "hunter";

const RESULTS: ReadonlySet<string> = new Set(["deliverable", "undeliverable", "risky"]);
const bool = (v: unknown) => (typeof v === "boolean" ? v : null);
const num = (v: unknown) => (typeof v === "number" ? v : null);

const auth = (ctx: ProviderContext) => ourKeyAs(ctx, "X-API-KEY");

/** The answer's `data` once Hunter answered 200 (a 202 means it is still checking: retry later). */
function dataOf(res: RailResponse): Record<string, unknown> {
  if (res.status === 202)
    // Hunter is still talking to the mail server: nothing was answered yet, the same call later may be.
    throw new ProviderError("http_4xx", KEY, "hunter is still verifying the address", {
      status: 202,
      retryable: true,
      blame: "provider",
    });
  if (res.status !== 200) {
    const first = isRecord(res.body) && Array.isArray(res.body.errors) && isRecord(res.body.errors[0]) ? res.body.errors[0] : undefined;
    throw vendorError(KEY, res, { code: stringField(first, "id"), message: stringField(first, "details") });
  }
  const data = isRecord(res.body) && isRecord(res.body.data) ? res.body.data : undefined;
  if (!data) throw invalidResponse(KEY, res, "without data");
  return data;
}

export const hunterProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.hunter.io" },
  capabilities: {
    "enrichment.email.find": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const query = new URLSearchParams({ domain: read.string("domain", true) });
        const fullName = read.string("fullName");
        const firstName = read.string("firstName");
        const lastName = read.string("lastName");
        if (firstName && lastName) {
          query.set("first_name", firstName);
          query.set("last_name", lastName);
        } else if (fullName) query.set("full_name", fullName);
        else throw inputRefusal(KEY, "give fullName, or firstName with lastName", "lastName");
        return { method: "GET", url: `${ctx.baseUrl}/v2/email-finder?${query}`, headers: auth(ctx) };
      },
      parse(res) {
        const data = dataOf(res);
        const email = stringField(data, "email") ?? null;
        const verification = isRecord(data.verification) ? data.verification : {};
        const sources = Array.isArray(data.sources) ? data.sources.filter(isRecord) : [];
        return {
          status: "completed",
          data: {
            found: email !== null,
            email,
            score: num(data.score),
            firstName: stringField(data, "first_name") ?? null,
            lastName: stringField(data, "last_name") ?? null,
            position: stringField(data, "position") ?? null,
            company: stringField(data, "company") ?? null,
            linkedinUrl: stringField(data, "linkedin_url") ?? null,
            verificationStatus: stringField(verification, "status") ?? null,
            sources: sources.map((s) => ({ domain: stringField(s, "domain") ?? null, uri: stringField(s, "uri") ?? null })),
          },
        };
      },
    },
    "enrichment.email.verify": {
      request(input, ctx) {
        const query = new URLSearchParams({ email: new InputReader(KEY, input).string("email", true) });
        return { method: "GET", url: `${ctx.baseUrl}/v2/email-verifier?${query}`, headers: auth(ctx) };
      },
      parse(res) {
        const data = dataOf(res);
        const email = stringField(data, "email");
        const status = stringField(data, "status");
        if (!email || !status) throw invalidResponse(KEY, res, "without email and status");
        const result = stringField(data, "result");
        const verification: EmailVerification = {
          email,
          result: result && RESULTS.has(result) ? (result as DeliverabilityResult) : "unknown",
          vendorStatus: status,
          catchAll: bool(data.accept_all),
          disposable: bool(data.disposable),
          freeEmail: bool(data.webmail),
          mxFound: bool(data.mx_records),
          score: num(data.score),
          didYouMean: null,
        };
        return { status: "completed", data: { ...verification } };
      },
    },
  },
});
