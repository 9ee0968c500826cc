// The email.send input as the email vendors need it: recipients as lists of single mailboxes, parsed
// as RFC 5322 reads them and written back in one vendor-safe form; a sender (the platform sender of
// the account, under at most the caller's display name marked as relayed); at least one body; attachments.
// Whether a `from` or `replyTo` is the caller's to use is decided before any route is planned
// (domain/owned-senders.ts); a managed route then sends only as its platform sender.
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput, ProviderContext, SenderField } from "../domain/provider-port";
import { formatMailbox, parseMailbox, sameAddress } from "../domain/mailbox";

/** What follows a caller's display name on the platform sender, so a reader sees the mail is relayed, not the platform's own. */
const RELAY_SUFFIX = " via Agentic API";

/** email.send's sender fields, as every email adapter declares them: each is the platform sender or an inbox the caller owns. */
export const EMAIL_SENDER_FIELDS: readonly SenderField[] = [
  { field: "from", kind: "email.inbox", sendsAs: true },
  { field: "replyTo", kind: "email.inbox", sendsAs: false },
];

/** One attachment as the contract takes it. */
export interface EmailAttachment {
  filename: string;
  /** File content, standard base64. */
  contentBase64: string;
  /** MIME type, e.g. application/pdf. */
  contentType?: string;
}

export interface EmailMessage {
  /** `user@host` or `Name <user@host>`; empty when the vendor sends as an inbox instead. */
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  html?: string;
  text?: string;
  attachments: EmailAttachment[];
}

/**
 * Reads an email.send input (`to`, `subject`, `html`/`text`, `from`, `replyTo`, `cc`, `bcc`, `attachments`).
 * `sender: "inbox"` is for vendors that send as an owned inbox, where `from` does not apply.
 */
export function readEmailMessage(
  providerKey: string,
  input: CapabilityInput,
  ctx: ProviderContext,
  sender: "address" | "inbox" = "address",
): EmailMessage {
  const read = new InputReader(providerKey, input);
  const html = read.string("html");
  const text = read.string("text");
  if (html === undefined && text === undefined) throw inputRefusal(providerKey, "give `html`, `text` or both");
  const from = sender === "inbox" ? "" : senderOf(providerKey, read.string("from"), ctx.settings?.defaultFrom);
  const mailboxes = (field: string, required = false) =>
    read.strings(field, required).map((value) => {
      const m = parseMailbox(value);
      if (!m) throw inputRefusal(providerKey, `\`${field}\` must hold single email addresses`, field);
      return formatMailbox(m);
    });
  return {
    from,
    to: mailboxes("to", true),
    cc: mailboxes("cc"),
    bcc: mailboxes("bcc"),
    replyTo: mailboxes("replyTo"),
    subject: read.string("subject", true),
    ...(html !== undefined ? { html } : {}),
    ...(text !== undefined ? { text } : {}),
    attachments: readAttachments(providerKey, read.raw("attachments")),
  };
}

/**
 * The platform sender (`defaultFrom`), under the caller's display name plus RELAY_SUFFIX when `from`
 * gives one. A `from` with another address is refused: this account sends as its platform sender only.
 */
function senderOf(providerKey: string, from: string | undefined, defaultFrom: string | undefined): string {
  const platform = defaultFrom !== undefined ? parseMailbox(defaultFrom) : undefined;
  if (!platform) throw inputRefusal(providerKey, "no platform sender is configured for this provider (EMAIL_DEFAULT_FROM)");
  if (from === undefined) return formatMailbox(platform);
  const asked = parseMailbox(from);
  if (!asked || !sameAddress(asked.address, platform.address))
    throw inputRefusal(providerKey, `this route sends only as the platform sender ${platform.address}`, "from");
  return formatMailbox({
    address: platform.address,
    ...(asked.name ? { name: `${asked.name}${RELAY_SUFFIX}` } : platform.name ? { name: platform.name } : {}),
  });
}

function readAttachments(providerKey: string, value: unknown): EmailAttachment[] {
  if (value === undefined || value === null) return [];
  const ok =
    Array.isArray(value) &&
    value.every(
      (a) =>
        typeof a === "object" &&
        a !== null &&
        typeof a.filename === "string" &&
        typeof a.contentBase64 === "string" &&
        (a.contentType === undefined || typeof a.contentType === "string"),
    );
  if (!ok) throw inputRefusal(providerKey, "`attachments` must be an array of {filename, contentBase64, contentType?}");
  return (value as EmailAttachment[]).map((a) => ({
    filename: a.filename,
    contentBase64: a.contentBase64,
    ...(a.contentType ? { contentType: a.contentType } : {}),
  }));
}

/** `{email, name?}` of a mailbox readEmailMessage wrote (vendors that take recipients as objects). */
export function splitMailbox(mailbox: string): { email: string; name?: string } {
  const m = parseMailbox(mailbox);
  if (!m) return { email: mailbox.trim() };
  return { email: m.address, ...(m.name ? { name: m.name } : {}) };
}

/** `{ attachments: [{filename, content, content_type?}] }`, Resend's and AgentMail's shape; nothing without attachments. */
export function contentAttachments(m: Pick<EmailMessage, "attachments">): { attachments?: Record<string, string>[] } {
  if (!m.attachments.length) return {};
  return {
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      content: a.contentBase64,
      ...(a.contentType ? { content_type: a.contentType } : {}),
    })),
  };
}
