// An executor that never answers (a frozen process: its socket accepts connections, nothing comes
// back): the execute answers 504 TIMEOUT at the gateway's deadline, naming the execution (body and
// Execution-Id, the id the gateway gave the call) and where to read its outcome, GET /executions/{id},
// instead of "retry shortly": an execution that timed out may still end charged.
import { createServer, type Server, type Socket } from "node:net";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, execute, newUser } from "./execute-helpers";

let frozen: Server;
const sockets = new Set<Socket>();
let sys: BackedSystem;

beforeAll(async () => {
  frozen = createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => frozen.listen(0, "127.0.0.1", resolve));
  const { port } = frozen.address() as { port: number };
  sys = await startBackedSystem({ executorAddress: `127.0.0.1:${port}`, executeDeadlineMs: 1_500 });
}, 60_000);

afterAll(async () => {
  await sys?.stop();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => frozen?.close(resolve));
});

describe("an execute whose executor does not answer in time", () => {
  it("answers 504 TIMEOUT with the execution's id and GET /executions/{id} in the hint", async () => {
    const user = await newUser(sys, 100);
    const res = await execute(sys, user, "email", "send", { to: "ada@example.com", subject: "Hi", text: "Hello", provider: "resend" });

    expect(sockets.size).toBeGreaterThan(0); // the call went to the frozen executor
    expect(res.status).toBe(504);
    const id = res.body.executionId as string;
    expect(id).toMatch(/^exe_[0-9A-Za-z]{22}$/);
    expect(res.headers.get("execution-id")).toBe(id);
    expect(res.body).toMatchObject({ success: false, code: "TIMEOUT" });
    expect(res.body.error).toContain(id);
    expect(res.body.hint).toContain(`GET /executions/${id}`);
    expect(res.body.hint).not.toMatch(/retry shortly/i);

    // Here the executor never started it: the id reads as not found, and nothing was held or charged.
    const lookup = await sys.authed(`/executions/${id}`, { key: user.key });
    expect(lookup.status).toBe(404);
    expect(await lookup.json()).toMatchObject({ code: "EXECUTION_NOT_FOUND" });
    expect(await balance(sys, user)).toBe(100);
  }, 30_000);
});
