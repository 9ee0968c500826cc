// Refuses a request whose declared Content-Length is over the body limit from its header, before a
// byte of the body is read and whatever path it names: 413, and the connection is closed (the rest
// of the body is never waited for). Bodies without a declared length are bounded by express.json.
import type { IncomingMessage } from "node:http";
import bytes from "bytes";
import { HttpError } from "../errors";

/** Returns the check: the refusal of a request declaring more than `limit`, or undefined. */
export function declaredOversize(limit: string): (req: IncomingMessage) => HttpError | undefined {
  const max = bytes.parse(limit) ?? 0;
  return (req) => {
    const declared = req.headers["content-length"];
    if (declared === undefined || !(Number(declared) > max)) return undefined;
    return new HttpError(
      413,
      "PAYLOAD_TOO_LARGE",
      `The body declares ${declared} bytes; at most ${limit} is accepted.`,
      "Send a smaller body.",
    );
  };
}
