// whenConnected over real gRPC channels: to a listening server it hands the harness over; to a port
// nothing listens on it gives up at its deadline and stops what the harness started.
import { Client, credentials, Server } from "@grpc/grpc-js";
import { bindServer, channelOptions, channelReady } from "@agentic/platform";
import { freePort } from "./free-port";
import { whenConnected } from "./connected";

function clientOf(address: string) {
  const client = new Client(address, credentials.createInsecure(), channelOptions());
  return { ready: (deadlineMs: number) => channelReady(client, deadlineMs), close: () => client.close() };
}

function harness() {
  const stopped: string[] = [];
  return { stopped, stop: async () => void stopped.push("stopped") };
}

it("hands the harness over once its client is connected", async () => {
  const server = new Server();
  const port = await bindServer(server, "127.0.0.1:0");
  const client = clientOf(`127.0.0.1:${port}`);
  try {
    const started = harness();
    await expect(whenConnected(client, started)).resolves.toBe(started);
    expect(started.stopped).toEqual([]);
  } finally {
    client.close();
    server.forceShutdown();
  }
});

it("stops the harness and rejects when its client cannot connect by the deadline", async () => {
  const client = clientOf(`127.0.0.1:${await freePort()}`);
  try {
    const started = harness();
    await expect(whenConnected(client, started, 300)).rejects.toThrow(/deadline/i);
    expect(started.stopped).toEqual(["stopped"]);
  } finally {
    client.close();
  }
});
