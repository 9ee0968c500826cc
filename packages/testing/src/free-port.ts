// Finds a free TCP port (for child processes that cannot be told to bind port 0).
//
// The port is drawn at random below Linux's ephemeral range (32768-60999 by default), not asked of the
// kernel with bind(0): a port bind(0) hands out comes from the ephemeral range, where any outgoing
// connection of the test run (a gRPC client, a load generator) may take it before the child binds it;
// with test files running two at a time that happened. A drawn port is checked free on every address
// (services bind 0.0.0.0) before it is handed out.
import { createServer } from "node:net";

const LOWEST = 20_000;
const HIGHEST = 32_767;

function bindsOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "0.0.0.0", () => srv.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (await bindsOn(port)) return port;
  }
  throw new Error(`no free port found between ${LOWEST} and ${HIGHEST} in 50 tries`);
}
