// Raw HTTP over a socket, for requests no well-behaved client sends (oversized or malformed lines,
// bodies that never arrive). Resolves with the answer as the server wrote it and when it closed.
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the connection's close. */
  closedAfterMs: number;
}

/**
 * Sends `chunks` (strings or Buffers; a number is a pause in ms before the next chunk), then waits
 * for the server to answer and close, at most `timeoutMs` (then rejects: the server hung).
 */
export function rawRequest(port: number, chunks: (string | Buffer | number)[], timeoutMs = 3_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${timeoutMs} ms; got: ${Buffer.concat(received).toString("latin1").slice(0, 200)}`));
    }, timeoutMs);
    socket.on("data", (d) => received.push(d));
    socket.on("error", () => undefined); // a reset after the answer is fine: the answer is what counts
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(received).toString("latin1");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = head.split("\r\n");
      const headers = Object.fromEntries(
        headerLines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body: rest.join("\r\n\r\n"), closedAfterMs: Date.now() - started });
    });
    socket.on("connect", async () => {
      for (const chunk of chunks) {
        if (typeof chunk === "number") await new Promise((r) => setTimeout(r, chunk));
        else if (!socket.destroyed) socket.write(chunk);
      }
    });
  });
}
