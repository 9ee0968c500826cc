// The gRPC calls a request waits for, counted from the spans the real processes export: every hop
// costs 1–2 ms of latency and a few hundred µs of CPU on both sides, so one that comes back (a
// separate Idempotency-Key claim before the hold, a router call on execute, a wallet read on a
// recommend whose wallet the router holds) fails here. Calls that run beside the answer (CompleteExecution
// for a success too large for its capture to carry) and bus messages are not hops of the answer and are left out.
import { randomBytes } from "node:crypto";
import { SPAN_KIND, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver";
import { startSystem, type RunningSystem } from "./support/system";

/** Stored off the answer's path once the capture that carries the answer was acknowledged. */
const OFF_THE_ANSWERS_PATH = /\/CompleteExecution$/;

function newTraceparent() {
  const traceId = randomBytes(16).toString("hex");
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` };
}

describe("synchronous gRPC hops per request", () => {
  let otlp: OtlpReceiver;
  let sys: RunningSystem;
  let auth: Record<string, string>;
  const email = () => `${sys.baseUrl}/domains/email/capabilities/send`;

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    sys = await startSystem(otlp.exporterEnv);
    auth = { authorization: `Bearer ${sys.apiKey}`, "content-type": "application/json" };
    const init = await fetch(`${sys.baseUrl}/dev/init`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ userId: "dev-user", balanceCredits: 1000 }),
    });
    expect(init.status).toBe(200);
    // Warm: the gateway's key check and catalog reads are cached after the first request, as in steady use.
    expect((await fetch(`${email()}/recommend`, { method: "POST", headers: auth, body: "{}" })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await sys?.stop();
    await otlp?.close();
  });

  /**
   * Sends one request in a trace of its own; resolves the gRPC methods the request's trace called, in the order
   * they started, once every span that could name one has arrived: each process exports its spans in the order
   * they ended, one batch after another, and a call's CLIENT span ends before the SERVER span of the process that
   * made it (the gateway's HTTP span, or a gRPC SERVER span). So once the gateway's span and the SERVER span of
   * every call seen have arrived, no call of the answer can still be on its way.
   */
  async function grpcCallsOf(send: (headers: Record<string, string>) => Promise<Response>): Promise<string[]> {
    // The key check is cached for 5 s, as in steady use: a keyed read just before keeps it warm however slow the machine.
    expect((await fetch(`${sys.baseUrl}/wallet`, { headers: auth })).status).toBe(200);
    const { traceId, traceparent } = newTraceparent();
    const res = await send({ ...auth, traceparent });
    expect(res.status).toBe(200);
    const inTrace = (s: ReceivedSpan) => s.traceId === traceId;
    const isGatewayServer = (s: ReceivedSpan) => inTrace(s) && s.service === "gateway" && s.kind === SPAN_KIND.SERVER;
    const isGrpcServer = (s: ReceivedSpan) => inTrace(s) && s.kind === SPAN_KIND.SERVER && s.attributes["rpc.system"] === "grpc";
    const answersCalls = (all: ReceivedSpan[]) =>
      all
        .filter((s) => inTrace(s) && s.kind === SPAN_KIND.CLIENT && s.attributes["rpc.system"] === "grpc")
        .filter((s) => !OFF_THE_ANSWERS_PATH.test(s.name));
    const spans = await otlp.waitFor(
      (all) =>
        all.some(isGatewayServer) && answersCalls(all).every((call) => all.some((s) => isGrpcServer(s) && s.parentSpanId === call.spanId)),
    );
    return answersCalls(spans)
      .sort((a, b) => a.startUs - b.startUs)
      .map((s) => s.name.replace(/^.*\./, ""));
  }

  // Before the executes: their captures change the wallet afterwards (over the bus), and the ledger's announcement
  // of that would empty the router's cache between these two.
  const agentName = `hops-${randomBytes(4).toString("hex")}`;
  const recommend = (headers: Record<string, string>) =>
    fetch(`${email()}/recommend`, { method: "POST", headers, body: JSON.stringify({ agentName }) });

  it("recommend, the first for its (user, key, agent): gateway → router, then the router's wallet read", async () => {
    expect(await grpcCallsOf(recommend)).toEqual(["RouterService/Recommend", "LedgerService/GetWallet"]);
  });

  it("recommend again, the wallet unchanged: gateway → router only (the router's wallet cache answers)", async () => {
    expect(await grpcCallsOf(recommend)).toEqual(["RouterService/Recommend"]);
  });

  it("execute with an Idempotency-Key: gateway → executor (which ranks in process: no router call), then one ledger call that claims the key and holds the credits", async () => {
    const calls = await grpcCallsOf((headers) =>
      fetch(`${email()}/execute`, {
        method: "POST",
        headers: { ...headers, "idempotency-key": `hops-${randomBytes(6).toString("hex")}` },
        body: JSON.stringify({ to: "ada@example.com", subject: "Hops", text: "hello" }),
      }),
    );
    expect(calls).toEqual(["ExecutorService/Execute", "LedgerService/ClaimIdempotencyKeyAndHoldCredits"]);
  });

  it("execute without a key: gateway → executor (ranked in process), then the hold", async () => {
    const calls = await grpcCallsOf((headers) =>
      fetch(`${email()}/execute`, {
        method: "POST",
        headers,
        body: JSON.stringify({ to: "ada@example.com", subject: "Hops", text: "hello" }),
      }),
    );
    expect(calls).toEqual(["ExecutorService/Execute", "LedgerService/HoldCredits"]);
  });
});
