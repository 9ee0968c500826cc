// One mailbox as RFC 5322 reads it (the email-addresses parser, with RFC 6532's UTF-8): `user@host` or
// `Display Name <user@host>`. A field that takes one address takes exactly one mailbox: an address
// list, a group, or a display name holding a separator (`,` `;` `<` `>` `@` `"` `\`) is refused, so one
// billed recipient is one recipient at every vendor (Postmark reads its recipients as a comma list) and
// a display name never shows another address.
import emailAddresses from "email-addresses";

export interface Mailbox {
  /** `user@host`, as written. */
  address: string;
  /** The display name, when one was given. */
  name?: string;
}

const ADDRESS_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
/** The address forms vendors deliver to: a dot-atom local part and a host name with a dot (no IP literals, no quoted local parts). */
const DELIVERABLE = new RegExp(`^([^\\s@<>()\\[\\]\\\\,;:"]+)@(${ADDRESS_LABEL}(?:\\.${ADDRESS_LABEL})+)$`);
const NAME_SEPARATORS = /[,;<>@"\\]/;

/** The one mailbox `value` is, or undefined (a list, a group, a name with a separator, an undeliverable or over-long address). */
export function parseMailbox(value: string): Mailbox | undefined {
  const parsed = emailAddresses.parseOneAddress({ input: value, rfc6532: true });
  if (!parsed || parsed.type !== "mailbox") return undefined;
  const m = DELIVERABLE.exec(parsed.address);
  if (!m || (m[1] as string).length > 64 || parsed.address.length > 254) return undefined;
  const name = parsed.name?.trim();
  if (name && (NAME_SEPARATORS.test(name) || /\p{Cc}/u.test(name))) return undefined;
  return { address: parsed.address, ...(name ? { name } : {}) };
}

/** `Name <user@host>` or `user@host`: the mailbox as one vendor-safe string (a parsed name holds no separator). */
export function formatMailbox(m: Mailbox): string {
  return m.name ? `${m.name} <${m.address}>` : m.address;
}

/** Whether two mailboxes are the same address (the host is case-insensitive; local parts are compared as written, lower-cased as every vendor does). */
export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
