// The sandbox's small world of mail domains and mailboxes, shared by the email-finding and
// email-verifying stand-ins (Hunter, ZeroBounce) so they agree with each other: company domains
// with their address pattern and people, a catch-all domain, webmail and disposable domains.

export interface CompanyDomain {
  domain: string;
  company: string;
  /** Accepts mail for any local part, so a mailbox cannot be confirmed. */
  catchAll: boolean;
  people: Array<{ firstName: string; lastName: string; position: string }>;
}

export const COMPANY_DOMAINS: readonly CompanyDomain[] = [
  {
    domain: "northwind.example",
    company: "Northwind Labs",
    catchAll: false,
    people: [
      { firstName: "Ada", lastName: "Moreau", position: "VP of Engineering" },
      { firstName: "Ben", lastName: "Okafor", position: "Senior Software Engineer" },
      { firstName: "Goro", lastName: "Tanaka", position: "Director of Marketing" },
    ],
  },
  {
    domain: "globex.example",
    company: "Globex Analytics",
    catchAll: true,
    people: [
      { firstName: "Chen", lastName: "Wei", position: "Head of Sales" },
      { firstName: "Dana", lastName: "Kowalski", position: "Chief Executive Officer" },
    ],
  },
  {
    domain: "initech.example",
    company: "Initech",
    catchAll: false,
    people: [
      { firstName: "Eli", lastName: "Navarro", position: "Engineering Manager" },
      { firstName: "Fatima", lastName: "Haddad", position: "Software Engineer" },
    ],
  },
];

export const WEBMAIL_DOMAINS: ReadonlySet<string> = new Set(["gmail.com", "yahoo.com", "outlook.com", "proton.me"]);
export const DISPOSABLE_DOMAINS: ReadonlySet<string> = new Set(["mailinator.com", "guerrillamail.com", "10minutemail.com"]);
/** Misspelt webmail domains and what they were meant to be. */
export const TYPO_DOMAINS: Readonly<Record<string, string>> = { "gmial.com": "gmail.com", "yaho.com": "yahoo.com" };

/** The address of a person at a company domain (first.last). */
export function addressOf(firstName: string, lastName: string, domain: string): string {
  return `${firstName}.${lastName}@${domain}`.toLowerCase();
}

export type MailboxVerdict =
  | { kind: "bad_syntax" }
  | { kind: "no_mx"; domain: string }
  | { kind: "disposable"; domain: string }
  | { kind: "webmail"; domain: string }
  | { kind: "typo"; domain: string; suggestion: string }
  | { kind: "catch_all"; domain: string }
  | { kind: "exists"; domain: string; company: CompanyDomain }
  | { kind: "no_mailbox"; domain: string };

/** What an SMTP check of `email` finds in the sandbox's world. */
export function checkMailbox(email: string): MailboxVerdict {
  const m = /^([^\s@]+)@([^\s@]+\.[^\s@]+)$/.exec(email.trim().toLowerCase());
  if (!m) return { kind: "bad_syntax" };
  const [, local, domain] = m as unknown as [string, string, string];
  if (DISPOSABLE_DOMAINS.has(domain)) return { kind: "disposable", domain };
  if (WEBMAIL_DOMAINS.has(domain)) return { kind: "webmail", domain };
  const suggestion = TYPO_DOMAINS[domain];
  if (suggestion) return { kind: "typo", domain, suggestion };
  const company = COMPANY_DOMAINS.find((c) => c.domain === domain);
  if (!company) return { kind: "no_mx", domain };
  if (company.catchAll) return { kind: "catch_all", domain };
  const exists = company.people.some((p) => addressOf(p.firstName, p.lastName, domain) === `${local}@${domain}`);
  return exists ? { kind: "exists", domain, company } : { kind: "no_mailbox", domain };
}
