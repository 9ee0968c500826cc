// A forwarding HTTP proxy in front of the gateway that can play a new catalog version: once
// `change()` is called, GET /domains answers with another ETag (a conditional GET with the old one
// gets the full answer), and the capabilities of the domain given are answered with one capability
// turned recommend_only, as a catalog deploy that gates it would. Everything else is forwarded as is.
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface CatalogVersionProxy {
  /** Base URL (base path included) of the proxied API. */
  baseUrl: string;
  /** From now on, the catalog looks changed: `capabilityId` of `domain` is gated. */
  change(domain: string, capabilityId: string): void;
  close(): Promise<void>;
}

const NEW_VERSION = '"new-catalog-version"';

export async function startCatalogVersionProxy(baseUrl: string): Promise<CatalogVersionProxy> {
  const upstream = new URL(baseUrl);
  const basePath = upstream.pathname;
  let changed: { domain: string; capabilityId: string } | undefined;

  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0]!.slice(basePath.length);
    const domainsRead = req.method === "GET" && path === "/domains";
    const capabilitiesRead = changed !== undefined && req.method === "GET" && path === `/domains/${changed.domain}/capabilities`;
    const headers = { ...req.headers, host: upstream.host };
    if (changed && (domainsRead || capabilitiesRead)) {
      if (domainsRead && req.headers["if-none-match"] === NEW_VERSION) {
        res.writeHead(304, { etag: NEW_VERSION });
        res.end();
        return;
      }
      delete headers["if-none-match"];
    }
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      const body: Buffer[] = [];
      answer.on("data", (c: Buffer) => body.push(c));
      answer.on("end", () => {
        let text = Buffer.concat(body);
        const out = { ...answer.headers };
        if (changed && domainsRead) out.etag = NEW_VERSION;
        if (changed && capabilitiesRead && answer.statusCode === 200) {
          const gated = changed.capabilityId;
          const list = JSON.parse(text.toString("utf8")) as Array<{ capabilityId: string; status: string }>;
          text = Buffer.from(JSON.stringify(list.map((c) => (c.capabilityId === gated ? { ...c, status: "recommend_only" } : c))));
          out["content-length"] = String(text.length);
        }
        res.writeHead(answer.statusCode ?? 502, out);
        res.end(text);
      });
    });
    forward.on("error", () => req.socket.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    change(domain, capabilityId) {
      changed = { domain, capabilityId };
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
