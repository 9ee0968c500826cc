// sendJson, and sendJsonBytes given the body's JSON bytes, answer byte for byte what express's res.json
// answers (status line, headers in their order, body), for bodies short and long (express sizes them
// differently), non-ASCII included.
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { sendJson, sendJsonBytes } from "./send-json";

const bodies: Record<string, object> = {
  short: { recommendationId: "rec_1", candidates: [] },
  long: { candidates: Array.from({ length: 40 }, (_, i) => ({ routeKey: `email.send.vendor-${i}`, reason: "cheapest — sûr" })) },
};

let server: Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.post("/express/:name", (req, res) => void res.json(bodies[req.params.name]));
  app.post("/send-json/:name", (req, res) => sendJson(res, bodies[req.params.name]!));
  app.post("/send-json-bytes/:name", (req, res) => sendJsonBytes(res, Buffer.from(JSON.stringify(bodies[req.params.name]!))));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The answer's status, raw headers but Date, and body bytes. */
function answer(path: string): Promise<{ status: number; headers: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "POST" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (res.rawHeaders[i] !== "Date") headers.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("sendJson", () => {
  it.each(Object.keys(bodies))("answers a %s body as res.json does", async (name) => {
    const [viaExpress, viaSendJson] = await Promise.all([answer(`/express/${name}`), answer(`/send-json/${name}`)]);
    expect(viaSendJson).toEqual(viaExpress);
    expect(viaSendJson.headers).toContain("Content-Type: application/json; charset=utf-8");
  });

  it.each(Object.keys(bodies))("answers a %s body given as JSON bytes as res.json does", async (name) => {
    const [viaExpress, viaBytes] = await Promise.all([answer(`/express/${name}`), answer(`/send-json-bytes/${name}`)]);
    expect(viaBytes).toEqual(viaExpress);
  });
});
