// /metrics serves the default registry (with the build info), and the unary adapter records RED series per method.
import { Client, credentials, Metadata } from "@grpc/grpc-js";
import { startMetricsServer } from "./metrics-server";
import { bindServer, createGrpcServer, stopServer } from "../grpc/server";
import { unary } from "../grpc/unary";
import { notFound } from "../errors";

const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const definition = {
  find: {
    path: "/agentic.test.v1.TestService/Find",
    requestStream: false,
    responseStream: false,
    requestSerialize: json,
    requestDeserialize: (b: Buffer) => JSON.parse(b.toString()) as { id: string },
    responseSerialize: json,
    responseDeserialize: (b: Buffer) => JSON.parse(b.toString()) as { id: string },
  },
};

describe("metrics", () => {
  it("exposes rpc_server_duration_seconds per method and status after traffic", async () => {
    const server = createGrpcServer();
    server.addService(definition, {
      find: unary<{ id: string }, { id: string }>(async (req) => {
        if (req.id === "missing") throw notFound("THING_NOT_FOUND", "no such thing", "Look elsewhere.");
        return req;
      }),
    });
    const port = await bindServer(server, "127.0.0.1:0");
    const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
    const metrics = await startMetricsServer(0, "127.0.0.1");
    try {
      const call = (id: string) =>
        new Promise<void>((resolve) =>
          client.makeUnaryRequest(
            definition.find.path,
            json,
            (b: Buffer) => b,
            { id },
            new Metadata(),
            {},
            () => resolve(),
          ),
        );
      await call("a");
      await call("b");
      await call("missing");
      const text = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
      const series = (code: number) =>
        `rpc_server_duration_seconds_count{rpc_service="agentic.test.v1.TestService",rpc_method="Find",rpc_grpc_status_code="${code}"}`;
      expect(text).toContain(`${series(0)} 2`);
      expect(text).toContain(`${series(5)} 1`);
      expect(text).toMatch(/process_resident_memory_bytes \d+/);
      expect(text).toContain(`agentic_build_info{version="dev",node_version="${process.version}"} 1`);
      expect((await fetch(`http://127.0.0.1:${metrics.port}/other`)).status).toBe(404);
    } finally {
      client.close();
      await metrics.close();
      await stopServer(server, 1_000);
    }
  });
});
