// agentic_build_info{version,node_version} 1: which build a scraped process runs, as Prometheus
// exporters conventionally say it (join it on `instance` to label any series with its version).
import { Gauge, register } from "prom-client";
import { serviceVersion } from "../service-version";

/** Registers the build-info gauge in the default registry once per process. */
export function registerBuildInfo(env: NodeJS.ProcessEnv = process.env): void {
  if (register.getSingleMetric("agentic_build_info")) return;
  new Gauge({
    name: "agentic_build_info",
    help: "Always 1: the service's version (SERVICE_VERSION, the image's version label) and its Node.js version.",
    labelNames: ["version", "node_version"],
  }).set({ version: serviceVersion(env), node_version: process.version }, 1);
}
