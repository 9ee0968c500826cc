// Probes: /healthz says the process is alive; /readyz checks every configured backend in parallel.
import { Router } from "express";
import { createHealthChecker } from "@agentic/platform";

/** A named readiness check; each must answer within the probe budget. */
export interface ReadinessCheck {
  name: string;
  check(timeoutMs: number): Promise<boolean>;
}

/** One readiness check per backend gRPC address, against the standard health service. */
export function backendChecks(backends: Record<string, string>): ReadinessCheck[] & { close(): void } {
  const checks = Object.entries(backends).map(([name, address]) => ({ name, ...createHealthChecker(address) }));
  return Object.assign(checks, { close: () => checks.forEach((c) => c.close()) });
}

export function healthRoutes(checks: ReadinessCheck[], timeoutMs = 500): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const results = await Promise.all(checks.map(async (c) => [c.name, (await c.check(timeoutMs)) ? "ok" : "unavailable"] as const));
    const ready = results.every(([, state]) => state === "ok");
    res.status(ready ? 200 : 503).json({ status: ready ? "ok" : "unavailable", checks: Object.fromEntries(results) });
  });
  return router;
}
