// ZeroBounce (enrichment.email.verify): GET /v2/validate?api_key=&email=&ip_address= (the key travels
// as a query parameter, as ZeroBounce documents) → {address, status, sub_status, free_email,
// did_you_mean, mx_found, ...}. ZeroBounce reports an account problem (bad key, no credits) as
// 200 {error}; other failures keep their HTTP status.
import { InputReader } from "./input";
import { invalidResponse, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import type { DeliverabilityResult, EmailVerification } from "./email-verification";

const KEY = "zerobounce";

/** ZeroBounce status → what a sender should do. */
const RESULT_OF: Readonly<Record<string, DeliverabilityResult>> = {
  valid: "deliverable",
  invalid: "undeliverable",
  spamtrap: "undeliverable",
  "catch-all": "risky",
  abuse: "risky",
  do_not_mail: "risky",
  unknown: "unknown",
};

export const zerobounceProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.zerobounce.net" },
  capabilities: {
    "enrichment.email.verify": {
      request(input, ctx) {
        const email = new InputReader(KEY, input).string("email", true);
        const query = new URLSearchParams({ ...ourKeyAs(ctx, "api_key"), email, ip_address: "" });
        return { method: "GET", url: `${ctx.baseUrl}/v2/validate?${query}`, headers: {} };
      },
      parse(res) {
        const error = stringField(res.body, "error") ?? stringField(res.body, "Message");
        // A 200 {error} is ZeroBounce's account error: vendorError makes it a provider fault, so another route is tried.
        if (res.status !== 200 || error !== undefined) throw vendorError(KEY, res, { ...(error ? { message: error } : {}) });
        const body = res.body as Record<string, unknown>;
        const email = stringField(body, "address");
        const status = stringField(body, "status");
        if (!email || !status) throw invalidResponse(KEY, res, "without address and status");
        const subStatus = stringField(body, "sub_status");
        const flag = (v: unknown) => (v === true || v === "true" ? true : v === false || v === "false" ? false : null);
        const verification: EmailVerification = {
          email,
          result: subStatus === "disposable" ? "risky" : (RESULT_OF[status] ?? "unknown"),
          vendorStatus: subStatus ? `${status}/${subStatus}` : status,
          catchAll: status === "catch-all",
          disposable: subStatus === "disposable",
          freeEmail: flag(body.free_email),
          mxFound: flag(body.mx_found),
          score: null,
          didYouMean: stringField(body, "did_you_mean") || null,
        };
        return { status: "completed", data: { ...verification } };
      },
    },
  },
});
