import { register } from "prom-client";
import { createExecutorMetrics } from "./metrics";

describe("execution metrics", () => {
  it("counts rail payments by rail and settlement", async () => {
    const metrics = createExecutorMetrics();
    metrics.railPayment("mpp", "settled");
    metrics.railPayment("mpp", "settled");
    metrics.railPayment("x402", "unconfirmed");
    const text = await register.getSingleMetricAsString("executor_rail_payments_total");
    expect(text).toContain('executor_rail_payments_total{rail="mpp",settlement="settled"} 2');
    expect(text).toContain('executor_rail_payments_total{rail="x402",settlement="unconfirmed"} 1');
  });
});
