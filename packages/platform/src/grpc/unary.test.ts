// The adapter over a real grpc-js server and client: one reply per call, errors keep code and hint.
import { Client, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { bindServer, createGrpcServer, stopServer } from "./server";
import { unary } from "./unary";
import { invalidArgument } from "../errors";
import { fromServiceError } from "./status";

interface HealthCheckRequest {
  service: string;
}
enum HealthCheckResponse_ServingStatus {
  SERVING = 1,
}
interface HealthCheckResponse {
  status: HealthCheckResponse_ServingStatus;
}

// A tiny hand-written service definition (reusing a JSON codec) keeps this test independent of generated code.
const definition = {
  echo: {
    path: "/test.Echo/Echo",
    requestStream: false,
    responseStream: false,
    requestSerialize: (v: HealthCheckRequest) => Buffer.from(JSON.stringify(v)),
    requestDeserialize: (b: Buffer) => JSON.parse(b.toString()) as HealthCheckRequest,
    responseSerialize: (v: HealthCheckResponse) => Buffer.from(JSON.stringify(v)),
    responseDeserialize: (b: Buffer) => JSON.parse(b.toString()) as HealthCheckResponse,
  },
};

describe("unary adapter", () => {
  const server = createGrpcServer();
  let client: Client;

  beforeAll(async () => {
    server.addService(definition, {
      echo: unary<HealthCheckRequest, HealthCheckResponse>(async (req) => {
        if (req.service === "bad") throw invalidArgument("INVALID_INPUT", "service is bad", "Send a good one.", { field: "service" });
        if (req.service === "crash") throw new Error("secret internal detail");
        return { status: HealthCheckResponse_ServingStatus.SERVING };
      }),
    });
    const port = await bindServer(server, "127.0.0.1:0");
    client = new Client(`127.0.0.1:${port}`, require("@grpc/grpc-js").credentials.createInsecure());
  });

  afterAll(async () => {
    client.close();
    await stopServer(server, 1_000);
  });

  const call = (service: string) =>
    new Promise<HealthCheckResponse>((resolve, reject) =>
      client.makeUnaryRequest(
        definition.echo.path,
        definition.echo.requestSerialize,
        definition.echo.responseDeserialize,
        { service },
        new Metadata(),
        {},
        (err: ServiceError | null, res?: HealthCheckResponse) => (err ? reject(err) : resolve(res!)),
      ),
    );

  it("answers with the handler's result", async () => {
    await expect(call("ok")).resolves.toEqual({ status: HealthCheckResponse_ServingStatus.SERVING });
  });

  it("carries an AppError's code, hint and details across the hop", async () => {
    const err = await call("bad").catch((e) => e);
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(fromServiceError(err)).toMatchObject({ code: "INVALID_INPUT", hint: "Send a good one.", details: { field: "service" } });
  });

  it("hides unexpected errors behind INTERNAL", async () => {
    const err = await call("crash").catch((e) => e);
    expect(err.code).toBe(status.INTERNAL);
    expect(err.details).toBe("internal error");
    expect(JSON.stringify(fromServiceError(err))).not.toContain("secret");
  });
});
