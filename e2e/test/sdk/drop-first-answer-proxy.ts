// A forwarding HTTP proxy in front of the gateway that, for the first request matching a test,
// forwards it, waits for the gateway's whole answer, and then cuts the client's connection without
// sending it: the server did the work, the client saw a network failure. Records every request.
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The answer was dropped (the client never got it). */
  dropped: boolean;
  /** Status the gateway answered with. */
  upstreamStatus: number;
}

export interface DropFirstAnswerProxy {
  origin: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startDropFirstAnswerProxy(
  target: string,
  drop: (method: string, path: string) => boolean,
): Promise<DropFirstAnswerProxy> {
  const upstream = new URL(target);
  const seen: SeenRequest[] = [];
  let dropped = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (c: Buffer) => body.push(c));
          answer.on("end", () => {
            const dropThis = !dropped && drop(req.method ?? "", req.url ?? "");
            seen.push({
              method: req.method ?? "",
              path: req.url ?? "",
              headers: req.headers,
              dropped: dropThis,
              upstreamStatus: answer.statusCode ?? 0,
            });
            if (dropThis) {
              dropped = true;
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      forward.on("error", () => req.socket.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
