// The one rule for input that ends up in a vendor URL's path: a value must be exactly one path
// segment of plain characters. encodeURIComponent alone is not enough: ".." survives it unchanged and
// is then normalized by URL parsers and servers into another vendor path (/v0/inboxes/../x is /v0/x),
// and a pre-encoded "%2e%2e" or "%2f" may be decoded on the way. The executor checks resource ids with
// it before anything is held; every adapter that puts input in a path encodes it with pathSegment().

/** Characters a path segment may hold: unreserved ones (RFC 3986) plus "@" and "+" (email-like ids). */
const SEGMENT = /^[A-Za-z0-9._~@+-]+$/;
const MAX_SEGMENT_LENGTH = 512;

/** Why `value` cannot be one path segment; undefined when it can. */
export function pathSegmentProblem(value: string): string | undefined {
  if (value.length === 0 || value.length > MAX_SEGMENT_LENGTH) return `must be 1 to ${MAX_SEGMENT_LENGTH} characters`;
  if (/^\.+$/.test(value)) return `must not be only dots ("." and ".." are path steps, not ids)`;
  if (!SEGMENT.test(value)) return `may hold only letters, digits and . _ ~ @ + - (no "/", "\\", "%", spaces or control characters)`;
  return undefined;
}
