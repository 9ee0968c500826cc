// The shipped NATS authorization (deploy/k8s/components/nats/auth.conf) on a real nats-server, with a
// ledger connected as its own user: only the executor's settlements reach the ledger. A forged
// release from any other client is refused by NATS and never applied, so the real capture still
// charges; nobody else can pull, acknowledge or delete the ledger's settlement consumer. Only the ledger
// announces wallet changes, and only the router hears them.
import { connect, type NatsConnection } from "nats";
import { EXECUTIONS_STREAM, SUBJECT_WALLET_CHANGED, natsAuthOptions } from "@agentic/platform";
import { WalletChanged } from "@agentic/proto/events/v1";
import { startNatsServer, waitFor, type NatsServerHandle, type NatsUser } from "@agentic/testing";
import { SETTLEMENT_DURABLE } from "../../src/bus/settlement-consumer";
import { SUBJECT_DEAD_LETTER } from "../../src/bus/dead-letter";
import { publishSettlement, SettlementKind, startTestLedger, type TestLedger } from "../harness";
import { uid } from "../support";

let nats: NatsServerHandle;
let ledger: TestLedger;
const connections: NatsConnection[] = [];
const as = async (user: NatsUser) => {
  const nc = await connect({ servers: nats.url, name: `test-${user}`, ...natsAuthOptions(nats.users![user]) });
  connections.push(nc);
  return nc;
};
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => "accepted",
    (err: { code?: string }) => err.code,
  );

beforeAll(async () => {
  nats = await startNatsServer({ authorization: true });
  ledger = await startTestLedger({ natsUrl: nats.url, natsCredentials: nats.users!.ledger, grants: { "nats-user": 100 } });
});
afterAll(async () => {
  await Promise.all(connections.map((nc) => nc.close()));
  await ledger?.stop();
  await nats?.stop();
});

describe("settlements on the shipped NATS permissions", () => {
  it("refuses a forged release from the router and the ledger itself; the executor's capture charges", async () => {
    const holdId = uid("att");
    await ledger.client.holdCredits({ holdId, userId: "nats-user", amountCredits: 10, ttlMs: 0, routeKey: "" });
    const release = { holdId, userId: "nats-user", kind: SettlementKind.SETTLEMENT_KIND_RELEASE, capturedCredits: 0 };
    for (const user of ["router", "ledger"] as const) {
      expect(await refusal(publishSettlement(await as(user), release))).toBe("PERMISSIONS_VIOLATION");
    }
    // The real capture, published by the executor, is the first (and only) settlement of the hold.
    await publishSettlement(await as("executor"), {
      holdId,
      userId: "nats-user",
      kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
      capturedCredits: 10,
    });
    const [applied] = await ledger.waitForSettlement(holdId);
    expect(applied).toMatchObject({ holdId, result: "applied" });
    expect((await ledger.client.getWallet({ userId: "nats-user" })).wallet).toMatchObject({ balanceCredits: 90, heldCredits: 0 });
  });

  it("refuses a client without credentials", async () => {
    await expect(connect({ servers: nats.url })).rejects.toMatchObject({ code: "AUTHORIZATION_VIOLATION" });
  });

  it("lets nobody but the ledger pull from, change or delete the settlement consumer", async () => {
    for (const user of ["router", "executor"] as const) {
      const jsm = await (await as(user)).jetstreamManager();
      expect(await refusal(jsm.consumers.delete(EXECUTIONS_STREAM, SETTLEMENT_DURABLE))).toBe("PERMISSIONS_VIOLATION");
      expect(await refusal(jsm.consumers.update(EXECUTIONS_STREAM, SETTLEMENT_DURABLE, { max_deliver: 1 }))).toBe("PERMISSIONS_VIOLATION");
      const consumer = await (
        await as(user)
      )
        .jetstream()
        .consumers.get(EXECUTIONS_STREAM, SETTLEMENT_DURABLE)
        .catch((err: { code?: string }) => err.code);
      expect(consumer).toBe("PERMISSIONS_VIOLATION");
    }
    // The ledger's own consumer is untouched and still delivers.
    const info = await (await (await as("admin")).jetstreamManager()).consumers.info(EXECUTIONS_STREAM, SETTLEMENT_DURABLE);
    expect(info.config.max_deliver).toBe(150);
  });

  it("lets only the ledger publish dead letters, and only the executor route outcomes", async () => {
    expect(await refusal((await as("router")).jetstream().publish(SUBJECT_DEAD_LETTER, new Uint8Array()))).toBe("PERMISSIONS_VIOLATION");
    expect(await refusal((await as("ledger")).jetstream().publish(SUBJECT_DEAD_LETTER, new Uint8Array()))).toBe("accepted");
    expect(await refusal((await as("router")).jetstream().publish("executions.outcome", new Uint8Array()))).toBe("PERMISSIONS_VIOLATION");
    expect(await refusal((await as("executor")).jetstream().publish("executions.outcome", new Uint8Array()))).toBe("accepted");
  });

  it("lets only the ledger announce wallet changes, and only the router read them", async () => {
    const router = await as("router");
    const heard: string[] = [];
    let routerRefused: unknown;
    router.subscribe(SUBJECT_WALLET_CHANGED, {
      callback: (err, msg) => (err ? (routerRefused = err) : heard.push(WalletChanged.decode(msg.data).userId)),
    });
    let executorRefused: { code?: string } | undefined;
    const executor = await as("executor");
    executor.subscribe(SUBJECT_WALLET_CHANGED, { callback: (err) => (executorRefused = err ?? undefined) });
    await Promise.all([router.flush(), executor.flush()]);
    expect(routerRefused).toBeUndefined();
    expect(executorRefused?.code).toBe("PERMISSIONS_VIOLATION");

    // A forged announcement (it would empty the routers' caches at will) is refused by the server. The
    // subscription's refusal above may still be on its way to the status stream: the publish's is awaited.
    const violations = (async () => {
      for await (const s of executor.status()) {
        const refusedPublish = (s as { permissionContext?: { operation?: string } }).permissionContext?.operation === "publish";
        if (s.type === "error" && s.data === "PERMISSIONS_VIOLATION" && refusedPublish) return s;
      }
      return undefined;
    })();
    executor.publish(SUBJECT_WALLET_CHANGED, WalletChanged.encode({ userId: "forged" }).finish());
    expect(await violations).toMatchObject({ permissionContext: { operation: "publish", subject: SUBJECT_WALLET_CHANGED } });

    // The ledger's own, after a grant committed, reaches the router.
    const userId = uid("user");
    await ledger.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 5, reason: "test" });
    await waitFor(() => heard.includes(userId), { what: "the grant's announcement at the router" });
    expect(heard).not.toContain("forged");
  });
});
