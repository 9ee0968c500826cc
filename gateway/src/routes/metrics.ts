// GET /metrics: Prometheus text of the gateway's registry (HTTP RED, process metrics).
import { Router } from "express";
import { register } from "prom-client";
import { collectProcessMetrics } from "@agentic/platform";

export function metricsRoutes(): Router {
  collectProcessMetrics();
  const router = Router();
  router.get("/metrics", async (_req, res) => {
    res.type(register.contentType).send(await register.metrics());
  });
  return router;
}
