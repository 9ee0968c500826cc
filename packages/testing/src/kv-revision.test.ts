// isLostRevisionRace tells a compare-and-set write that lost to another writer from NATS failing, on a
// real nats-server: a stale update and a create of an existing key lost; a closed connection did not.
import { connect } from "nats";
import { isLostRevisionRace } from "@agentic/platform";
import { startNatsServer } from "./nats-server";

describe("isLostRevisionRace", () => {
  it("is true for a stale update or a create of a taken key, false for a closed connection", async () => {
    const nats = await startNatsServer();
    const nc = await connect({ servers: nats.url });
    try {
      const kv = await nc.jetstream().views.kv("kv_revision_test");
      const first = await kv.create("k", "1");
      await kv.update("k", "2", first);
      const stale = await kv.update("k", "3", first).catch((err: unknown) => err);
      const taken = await kv.create("k", "4").catch((err: unknown) => err);
      expect([isLostRevisionRace(stale), isLostRevisionRace(taken)]).toEqual([true, true]);
      await nc.close();
      const closed = await kv.update("k", "5", first).catch((err: unknown) => err);
      expect(closed).toBeInstanceOf(Error);
      expect(isLostRevisionRace(closed)).toBe(false);
    } finally {
      if (!nc.isClosed()) await nc.close();
      await nats.stop();
    }
  });
});
