// When a dependency is down, recommend says UNAVAILABLE with a public code and hint, and never
// leaks addresses or stack traces.
import { status } from "@grpc/grpc-js";
import { fromServiceError } from "@agentic/platform";
import { startRouterSystem, type RouterSystem } from "../system";

describe("recommend with a dependency down", () => {
  let sys: RouterSystem;
  beforeAll(async () => {
    sys = await startRouterSystem({ grants: { u: 100 }, env: { DEPENDENCY_DEADLINE_MS: "500" } });
  });
  afterAll(() => sys?.stop());

  it("answers UNAVAILABLE while the ledger is down, without leaking internals", async () => {
    const req = { userId: "u", domainKey: "geo", capabilityId: "time-current", input: {}, optimizationPreferences: [] };
    await expect(sys.router.client.recommend(req)).resolves.toMatchObject({ success: true });

    await sys.ledger.stop();
    // The wallet read just now is cached (nothing can change it while the ledger is down): answered without the ledger.
    await expect(sys.router.client.recommend(req)).resolves.toMatchObject({ success: true });
    // A wallet not read yet needs the ledger.
    const err = await sys.router.client.recommend({ ...req, userId: "u-not-read-yet" }).catch((e) => e);
    expect(err.code).toBe(status.UNAVAILABLE);
    const remote = fromServiceError(err);
    expect(remote.code).toBe("UNAVAILABLE");
    expect(remote.hint).toContain("Retry");
    expect(JSON.stringify(remote)).not.toMatch(/127\.0\.0\.1|at .*\.ts|ECONNREFUSED/);
  });
});
