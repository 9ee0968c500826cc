// The executor refuses to start on a NATS server that could not carry its largest capture: a capture
// carries a keyed execution's whole answer, and one refused for its size after the vendor answered
// would leave the vendor paid and the caller uncharged. (Every server the project starts takes 8 MiB.)
import { startNatsServer, type NatsServerHandle } from "@agentic/testing";
import { startTestExecutor } from "../harness";

describe("executor start-up against the NATS server's max_payload", () => {
  let nats: NatsServerHandle | undefined;
  afterEach(() => nats?.stop());

  it("refuses a server with NATS's default 1 MB max_payload, saying what to set", async () => {
    nats = await startNatsServer({ maxPayloadBytes: 1024 * 1024 });
    const unreachable = "127.0.0.1:1"; // never called: the check comes first
    await expect(
      startTestExecutor({
        catalogAddress: unreachable,
        ledgerAddress: unreachable,
        natsUrl: nats.url,
        sandboxUrl: "http://127.0.0.1:1",
      }),
    ).rejects.toThrow(/accepts messages up to 1048576 bytes \(max_payload\), below the 8388608 bytes.*max_payload: 8MB/);
  });
});
