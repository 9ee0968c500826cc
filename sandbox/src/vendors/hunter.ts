// Hunter stand-in (API v2; key as `X-API-KEY`, `Authorization: Bearer` or `?api_key=`):
// GET /v2/email-finder?domain=&first_name=&last_name= | full_name= → {data: {email (null when not
// found), score, position, company, sources[], verification}, meta}; GET /v2/email-verifier?email= →
// {data: {status, result, score, accept_all, disposable, webmail, mx_records, ...}, meta}. Errors
// {errors: [{id, code, details}]}. Answers from the sandbox's mailbox world (mailboxes.ts).
import {
  authToken,
  header,
  type SandboxVendor,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";
import { addressOf, checkMailbox, COMPANY_DOMAINS, type MailboxVerdict } from "./mailboxes";

const ERROR_IDS: Readonly<Record<number, string>> = {
  400: "wrong_params",
  401: "authentication_failed",
  403: "restricted_account",
  404: "not_found",
  429: "too_many_requests",
};

function error(status: number, details: string, id = ERROR_IDS[status] ?? (status >= 500 ? "server_error" : "wrong_params")): VendorReply {
  return { status, body: { errors: [{ id, code: status, details }] } };
}

export function hunterVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "hunter",
    price: { amountAtomic: priceAtomic, description: "Hunter email finder or verifier" },
    authenticate(req) {
      const given = header(req, "x-api-key") ?? authToken(req, "Bearer") ?? req.query.api_key;
      if (!given) return error(401, "No user found for the API key supplied");
      return given === apiKey ? undefined : error(401, "No user found for the API key supplied");
    },
    errorReply: (status, message) => error(status, message),
    routes: [
      { method: "GET", path: "/v2/email-finder", handle: find },
      { method: "GET", path: "/v2/email-verifier", handle: verify },
    ],
  };
}

function find(req: VendorRequest): VendorReply {
  const domain = req.query.domain?.trim().toLowerCase();
  if (!domain && !req.query.company) return error(400, "You are missing the domain parameter");
  const [first, last] = req.query.full_name
    ? [req.query.full_name.trim().split(/\s+/)[0] ?? "", req.query.full_name.trim().split(/\s+/).slice(1).join(" ")]
    : [req.query.first_name?.trim() ?? "", req.query.last_name?.trim() ?? ""];
  if (!first || !last) return error(400, "You are missing the first_name or last_name parameter");
  const company = COMPANY_DOMAINS.find((c) => c.domain === domain);
  const person = company?.people.find(
    (p) => p.firstName.toLowerCase() === first.toLowerCase() && p.lastName.toLowerCase() === last.toLowerCase(),
  );
  const email = company && person ? addressOf(person.firstName, person.lastName, company.domain) : null;
  return {
    status: 200,
    body: {
      data: {
        first_name: person?.firstName ?? first,
        last_name: person?.lastName ?? last,
        email,
        score: email ? (company?.catchAll ? 71 : 97) : null,
        domain,
        accept_all: company?.catchAll ?? false,
        position: person?.position ?? null,
        twitter: null,
        linkedin_url: null,
        phone_number: null,
        company: company?.company ?? null,
        sources: email
          ? [{ domain, uri: `http://${domain}/team`, extracted_on: "2025-11-02", last_seen_on: "2026-10-30", still_on_page: true }]
          : [],
        verification: { date: email ? "2026-11-01" : null, status: email ? (company?.catchAll ? "accept_all" : "valid") : null },
      },
      meta: {
        params: { first_name: first, last_name: last, full_name: req.query.full_name ?? null, domain, company: req.query.company ?? null },
      },
    },
  };
}

/** Hunter's status and result words for a mailbox check. */
function hunterVerdict(v: MailboxVerdict): { status: string; result: string; score: number } {
  switch (v.kind) {
    case "exists":
      return { status: "valid", result: "deliverable", score: 96 };
    case "webmail":
      return { status: "webmail", result: "deliverable", score: 82 };
    case "catch_all":
      return { status: "accept_all", result: "risky", score: 68 };
    case "disposable":
      return { status: "disposable", result: "risky", score: 40 };
    default:
      return { status: "invalid", result: "undeliverable", score: 0 };
  }
}

function verify(req: VendorRequest): VendorReply {
  const email = req.query.email?.trim();
  if (!email) return error(400, "You are missing the email parameter");
  const verdict = checkMailbox(email);
  if (verdict.kind === "bad_syntax") return error(400, "The email parameter is not a valid email address", "invalid_email");
  const { status, result, score } = hunterVerdict(verdict);
  const hasMx = verdict.kind !== "no_mx" && verdict.kind !== "typo";
  return {
    status: 200,
    body: {
      data: {
        status,
        result,
        _deprecation_notice: "Using result is deprecated, use status instead",
        score,
        email: email.toLowerCase(),
        regexp: true,
        gibberish: false,
        disposable: verdict.kind === "disposable",
        webmail: verdict.kind === "webmail",
        mx_records: hasMx,
        smtp_server: hasMx,
        smtp_check: verdict.kind === "exists" || verdict.kind === "webmail" || verdict.kind === "catch_all",
        accept_all: verdict.kind === "catch_all",
        block: false,
        sources: [],
      },
      meta: { params: { email } },
    },
  };
}

export const hunterSandbox = {
  key: "hunter",
  apiKey: "hunter-sandbox-key",
  priceAtomic: "16000",
  create: hunterVendor,
} as const satisfies SandboxVendor;
