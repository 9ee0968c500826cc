// A comparison server for the bench, run in its own process: `node bare-server.mjs http|express
// <bodyFile> <path>` serves the exact bytes of <bodyFile> as JSON at GET <path> on a free
// loopback port and prints "listening on 127.0.0.1:<port>". http = bare node:http (the ceiling);
// express = a bare express 5 app with one route (the floor the gateway is built on).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { rootRequire } from "./paths.mjs";

const [kind, bodyFile, path] = process.argv.slice(2);
if (!["http", "express"].includes(kind) || !bodyFile || !path) {
  console.error("usage: node bare-server.mjs http|express <bodyFile> <path>");
  process.exit(2);
}
const body = readFileSync(bodyFile);
const CONTENT_TYPE = "application/json; charset=utf-8";

let handler;
if (kind === "http") {
  const length = String(body.length);
  handler = (req, res) => {
    if (req.method === "GET" && req.url === path) {
      res.writeHead(200, { "Content-Type": CONTENT_TYPE, "Content-Length": length });
      res.end(body);
    } else {
      res.writeHead(404).end();
    }
  };
} else {
  const express = rootRequire("express");
  const app = express();
  app.disable("x-powered-by");
  const text = body.toString("utf8");
  // res.send on a string sets Content-Length and a weak ETag, as the gateway's res.json does.
  app.get(path, (_req, res) => {
    res.type(CONTENT_TYPE).send(text);
  });
  handler = app;
}

const server = createServer(handler);
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`bare ${kind} listening on 127.0.0.1:${server.address().port}`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
