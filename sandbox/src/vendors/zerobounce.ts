// ZeroBounce stand-in (API v2, key as `?api_key=`): GET /v2/validate?api_key=&email=&ip_address= →
// {address, status, sub_status, free_email, did_you_mean, account, domain, mx_found, ...}. As ZeroBounce
// does, a bad key or a missing email answers 200 {error}; faults keep their HTTP status with {error}.
// Answers from the sandbox's mailbox world (mailboxes.ts).
import type { SandboxVendor, VendorDefinition, VendorOptions, VendorReply, VendorRequest, VendorContext } from "../http/vendor";
import { checkMailbox, type MailboxVerdict } from "./mailboxes";

const INVALID_KEY = "Invalid API key or your account ran out of credits";

function error(status: number, message: string): VendorReply {
  return { status, body: { error: message } };
}

export function zerobounceVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "zerobounce",
    price: { amountAtomic: priceAtomic, description: "ZeroBounce validation" },
    authenticate: (req) => (req.query.api_key === apiKey ? undefined : error(200, INVALID_KEY)),
    errorReply: error,
    routes: [{ method: "GET", path: "/v2/validate", handle: validate }],
  };
}

/** ZeroBounce's status and sub_status for a mailbox check. */
function zerobounceVerdict(v: MailboxVerdict): { status: string; sub_status: string } {
  switch (v.kind) {
    case "exists":
    case "webmail":
      return { status: "valid", sub_status: "" };
    case "catch_all":
      return { status: "catch-all", sub_status: "" };
    case "disposable":
      return { status: "do_not_mail", sub_status: "disposable" };
    case "typo":
      return { status: "invalid", sub_status: "possible_typo" };
    case "no_mx":
      return { status: "invalid", sub_status: "no_dns_entries" };
    case "no_mailbox":
      return { status: "invalid", sub_status: "mailbox_not_found" };
    default:
      return { status: "invalid", sub_status: "failed_syntax_check" };
  }
}

function validate(req: VendorRequest, ctx: VendorContext): VendorReply {
  const email = req.query.email?.trim();
  if (!email) return error(200, "Missing parameter: email");
  if (req.query.ip_address === undefined) return error(200, "Missing parameter: ip_address");
  const verdict = checkMailbox(email);
  const [account, domain] = email.toLowerCase().split("@");
  return {
    status: 200,
    body: {
      address: email.toLowerCase(),
      ...zerobounceVerdict(verdict),
      free_email: verdict.kind === "webmail",
      did_you_mean: verdict.kind === "typo" ? `${account}@${verdict.suggestion}` : null,
      account: account ?? "",
      domain: domain ?? "",
      domain_age_days: verdict.kind === "no_mx" || verdict.kind === "bad_syntax" ? "" : "4821",
      smtp_provider: verdict.kind === "webmail" ? "google" : "",
      mx_found: verdict.kind === "no_mx" || verdict.kind === "bad_syntax" || verdict.kind === "typo" ? "false" : "true",
      mx_record: verdict.kind === "no_mx" || verdict.kind === "bad_syntax" || verdict.kind === "typo" ? "" : `mx.${domain}`,
      firstname: null,
      lastname: null,
      gender: null,
      country: null,
      region: null,
      city: null,
      zipcode: null,
      processed_at: ctx.now().toISOString().replace("T", " ").slice(0, 23),
    },
  };
}

export const zerobounceSandbox = {
  key: "zerobounce",
  apiKey: "zerobounce-sandbox-key",
  priceAtomic: "8000",
  create: zerobounceVendor,
} as const satisfies SandboxVendor;
