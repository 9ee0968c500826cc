// The SLOs leave a vendor's failure out of our availability (it is a routing event, alerted per
// provider): for that, every 5xx the gateway answers carries its public code as error_type on
// http_server_request_duration_seconds, and nothing else does (so the series stay few).
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody, execute, newUser } from "./execute-helpers";

describe("error_type on the gateway's request histogram", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());

  it("names the vendor's failure on a 502, and nothing on a 4xx or a 200", async () => {
    const rich = await newUser(sys, 1_000);
    const poor = await newUser(sys, 1);
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx" });
    expect((await execute(sys, rich, "email", "send", emailBody({ provider: "resend" }))).status).toBe(502);
    expect((await execute(sys, poor, "email", "send", emailBody({ provider: "resend" }))).status).toBe(402);
    sys.sandbox.control.reset();
    expect((await execute(sys, rich, "email", "send", emailBody({ provider: "resend" }))).status).toBe(200);

    const text = await (await fetch(`${sys.gw.origin}/metrics`)).text();
    const executes = text.split("\n").filter((l) => l.startsWith("http_server_request_duration_seconds_count{") && l.includes('/execute"'));
    const route = "/api/agentic-api/domains/:domainKey/capabilities/:capabilityId/execute";
    expect(executes).toEqual(
      expect.arrayContaining([
        `http_server_request_duration_seconds_count{http_request_method="POST",http_route="${route}",http_response_status_code="502",error_type="PROVIDER_ERROR"} 1`,
        `http_server_request_duration_seconds_count{http_request_method="POST",http_route="${route}",http_response_status_code="402"} 1`,
        `http_server_request_duration_seconds_count{http_request_method="POST",http_route="${route}",http_response_status_code="200"} 1`,
      ]),
    );
    expect(executes.filter((l) => l.includes("error_type="))).toHaveLength(1);
    // The buckets reach the execute budget (an execute may take up to 77 s).
    for (const le of ["30", "60", "90"]) expect(text).toContain(`http_server_request_duration_seconds_bucket{le="${le}",`);
  });
});
