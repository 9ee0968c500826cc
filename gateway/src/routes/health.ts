// Probes: /healthz says the process is alive (no dependency checks: a backend outage never restarts
// the edge); /readyz says whether this pod can serve (see health/readiness.ts), checking every
// backend afresh and listing each one's state, so an SRE reads what is degraded.
import { Router } from "express";
import type { BackendMonitor } from "../health/backend-monitor";
import { readinessOf } from "../health/readiness";

export interface CatalogAnswers {
  /** Whether the catalog's answers are in the gateway's memory (they are served from there while the catalog is down). */
  inMemory(): boolean;
  /** Reads them into memory when they are not (the catalog answering), so a later catalog outage finds them there. */
  warm(): Promise<void>;
}

export function healthRoutes(monitor: BackendMonitor, catalog: CatalogAnswers): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const checks = await monitor.check();
    if (checks.catalog === "ok" && !catalog.inMemory()) await catalog.warm().catch(() => undefined);
    const { httpStatus, body } = readinessOf(checks, catalog.inMemory());
    res.status(httpStatus).json(body);
  });
  return router;
}
