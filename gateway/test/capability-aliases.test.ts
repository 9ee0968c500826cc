// Other spellings of a capability id (dots for dashes, or the whole capability key) answer the
// canonical resource, over real HTTP, for catalog reads and for execute (so an Idempotency-Key sent
// with either spelling is the same request).
import { canonicalCapabilityId } from "../src/middleware/capability-aliases";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { execute, newUser } from "./execute-helpers";

describe("canonicalCapabilityId", () => {
  it("turns dotted ids and whole keys into the dashed id, and leaves canonical ids alone", () => {
    expect(canonicalCapabilityId("email", "inbox.buy")).toBe("inbox-buy");
    expect(canonicalCapabilityId("email", "email.inbox.buy")).toBe("inbox-buy");
    expect(canonicalCapabilityId("geo", "time.current")).toBe("time-current");
    expect(canonicalCapabilityId("email", "send")).toBe("send");
    expect(canonicalCapabilityId("email", "inbox-buy")).toBe("inbox-buy");
  });
});

describe("capability id aliases over HTTP", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());

  it.each(["inbox.buy", "email.inbox.buy"])(
    "GET /domains/email/capabilities/%s answers inbox-buy, naming the canonical path",
    async (alias) => {
      for (const suffix of ["", "/routes", "/contract"]) {
        const res = await fetch(`${sys.gw.baseUrl}/domains/email/capabilities/${alias}${suffix}`);
        // The body rides along on a failure, so a refusal says why.
        expect([suffix, res.status, res.status === 200 ? "" : await res.text()]).toEqual([suffix, 200, ""]);
        expect(res.headers.get("content-location")).toBe(
          `${new URL(sys.gw.baseUrl).pathname.replace(/\/$/, "")}/domains/email/capabilities/inbox-buy${suffix}`,
        );
        const canonical = await (await fetch(`${sys.gw.baseUrl}/domains/email/capabilities/inbox-buy${suffix}`)).json();
        expect(await res.json()).toEqual(canonical);
      }
    },
  );

  it("executes under an alias as the canonical capability, and an Idempotency-Key replays across spellings", async () => {
    const user = await newUser(sys, 1_000);
    const body = { timezone: "Europe/Lisbon" };
    const headers = { "idempotency-key": `alias-${process.pid}` };
    const first = await execute(sys, user, "geo", "time.current", body, headers);
    expect([first.status, first.body.routeKey]).toEqual([200, "geo.time.current.timeapi.mpp"]);
    const again = await execute(sys, user, "geo", "time-current", body, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("still answers 404 CAPABILITY_NOT_FOUND for a spelling of nothing", async () => {
    const res = await fetch(`${sys.gw.baseUrl}/domains/email/capabilities/inbox.sell`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe("CAPABILITY_NOT_FOUND");
  });
});
