// The email.send input as the email vendors need it: recipients as lists, a sender (the caller's
// `from` or the account's configured default), at least one body, and attachments.
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput, ProviderContext } from "../domain/provider-port";

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
  const from = sender === "inbox" ? "" : (read.string("from") ?? ctx.settings?.defaultFrom);
  if (from === undefined) throw inputRefusal(providerKey, "no sender: give `from` or configure a default sender for this provider");
  const html = read.string("html");
  const text = read.string("text");
  if (html === undefined && text === undefined) throw inputRefusal(providerKey, "give `html`, `text` or both");
  return {
    from,
    to: read.strings("to", true),
    cc: read.strings("cc"),
    bcc: read.strings("bcc"),
    replyTo: read.strings("replyTo"),
    subject: read.string("subject", true),
    ...(html !== undefined ? { html } : {}),
    ...(text !== undefined ? { text } : {}),
    attachments: readAttachments(providerKey, read.raw("attachments")),
  };
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

/** Splits `Name <user@host>` into its parts (a bare address has no name). */
export function splitMailbox(mailbox: string): { email: string; name?: string } {
  const m = /^\s*"?([^"<]*?)"?\s*<([^<>]+)>\s*$/.exec(mailbox);
  if (!m) return { email: mailbox.trim() };
  const name = (m[1] as string).trim();
  return { email: (m[2] as string).trim(), ...(name ? { name } : {}) };
}
