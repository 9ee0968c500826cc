// A connection that closes gracefully keeps its calls: a server's stop (GOAWAY, then the calls in
// flight run on) and a connection reaching its maximum age, each while keepalive pings are due.
// grpc-js alone drops such calls at the next ping (UNAVAILABLE "Connection dropped"; patches/README.md).
import { Client, credentials, Server, type ServiceError } from "@grpc/grpc-js";
import { channelOptions } from "./client";
import { beginServerStop, bindServer, serverOptions, stopServer } from "./server";

const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const definition = {
  slow: {
    path: "/agentic.test.v1.SlowService/Slow",
    requestStream: false,
    responseStream: false,
    requestSerialize: json,
    requestDeserialize: (b: Buffer) => JSON.parse(b.toString()) as { ms: number },
    responseSerialize: json,
    responseDeserialize: (b: Buffer) => JSON.parse(b.toString()) as { slept: number },
  },
};
// Pings far more often than the call lasts, so several fall inside the graceful close.
const FAST_PINGS = { GRPC_KEEPALIVE_TIME_MS: "200", GRPC_KEEPALIVE_TIMEOUT_MS: "500" };
const CALL_MS = 1_500;

async function startSlowServer(env: NodeJS.ProcessEnv, longestCallMs: number) {
  // The options every service gets, read from this test's env rather than the process's.
  const server = new Server(serverOptions({ longestCallMs }, env));
  let callArrived!: () => void;
  // Resolves once the server is running a call (a connection, then a call on it, can take a while on a loaded machine).
  const arrived = new Promise<void>((resolve) => (callArrived = resolve));
  server.addService(definition, {
    slow: (call: { request: { ms: number } }, done: (err: null, res: { slept: number }) => void) => {
      callArrived();
      setTimeout(() => done(null, { slept: call.request.ms }), call.request.ms);
    },
  });
  const port = await bindServer(server, "127.0.0.1:0");
  const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure(), channelOptions(env));
  const call = () =>
    new Promise<{ slept: number }>((resolve, reject) =>
      client.makeUnaryRequest(
        definition.slow.path,
        json,
        (b: Buffer) => JSON.parse(b.toString()),
        { ms: CALL_MS },
        { deadline: Date.now() + 20_000 },
        (err: ServiceError | null, res?: { slept: number }) => (err ? reject(err) : resolve(res!)),
      ),
    );
  return { server, client, call, arrived };
}

describe("a graceful close with keepalive pings due", () => {
  it("lets a call in flight finish through its server's stop", async () => {
    const { server, client, call, arrived } = await startSlowServer(FAST_PINGS, CALL_MS);
    try {
      const answer = call();
      // Stopped once the call is in flight (a fixed wait of 100 ms once stopped the server before a loaded
      // CI machine had even connected, and the call failed to connect instead).
      await arrived;
      const stop = beginServerStop(server);
      await expect(answer).resolves.toEqual({ slept: CALL_MS });
      await stop.closed;
    } finally {
      client.close();
      await stopServer(server, 1_000);
    }
  });

  it("lets a call in flight finish when its connection reaches its maximum age", async () => {
    const env = { ...FAST_PINGS, GRPC_MAX_CONNECTION_AGE_MS: "300" };
    const { server, client, call } = await startSlowServer(env, CALL_MS);
    try {
      // Each call outlives its connection's age; the next one goes out on a fresh connection.
      await expect(call()).resolves.toEqual({ slept: CALL_MS });
      await expect(call()).resolves.toEqual({ slept: CALL_MS });
    } finally {
      client.close();
      await stopServer(server, 1_000);
    }
  });
});
