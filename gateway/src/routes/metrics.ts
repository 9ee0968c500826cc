// GET /metrics: Prometheus text of the gateway's registry (HTTP RED, limits, process metrics).
import { Router } from "express";
import { collectProcessMetrics } from "@agentic/platform";
import { metricsText } from "../metrics";

export function metricsRoutes(): Router {
  collectProcessMetrics();
  const router = Router();
  router.get("/metrics", async (_req, res) => {
    const { contentType, body } = await metricsText();
    res.type(contentType).send(body);
  });
  return router;
}
