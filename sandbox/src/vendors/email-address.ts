// Helpers shared by the email vendor stand-ins: `user@host` / `Name <user@host>` addresses, and
// the attachment lists each vendor takes in its own field names.

/** True for non-empty standard base64 (attachment content). */
export function isBase64(value: unknown): boolean {
  return typeof value === "string" && value.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0;
}

/** Index of the first attachment missing a string `nameKey` or base64 `contentKey`, -1 when all are fine. */
export function badAttachment(list: unknown, nameKey: string, contentKey: string): number {
  if (list === undefined) return -1;
  if (!Array.isArray(list)) return 0;
  return list.findIndex(
    (a) =>
      typeof a !== "object" ||
      a === null ||
      typeof (a as Record<string, unknown>)[nameKey] !== "string" ||
      !isBase64((a as Record<string, unknown>)[contentKey]),
  );
}

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** The bare address of `user@host` or `Display Name <user@host>`, or undefined when it is not one. */
export function parseMailbox(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  const named = /^(?:"?[^"<>]*"?\s*)?<([^<>]+)>$/.exec(trimmed);
  const address = named ? (named[1] as string).trim() : trimmed;
  return ADDRESS.test(address) ? address : undefined;
}
