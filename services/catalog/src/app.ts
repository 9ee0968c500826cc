// Starts a catalog: the catalog loaded (unless given), the gRPC server bound, health SERVING;
// `stop()` undoes it in reverse, health off first. main.ts runs it for production and local use;
// test/harness.ts runs the very same wiring in tests.
import { bindServer, createHealth, stopServer, type Logger } from "@agentic/platform";
import { compileCatalog, readCompiled, servedCatalogOf, type ServedCatalog } from "./compiled";
import type { CatalogIndex } from "./domain";
import { CATALOG_SERVICE_NAME, createCatalogServer } from "./server";
import { DEFAULT_CATALOG_DIR, loadServedCatalog } from "./source";

export interface CatalogAppOptions {
  /** A catalog already built; when absent, the one in `catalogDir` is loaded. */
  catalog?: CatalogIndex;
  /** Folder of the catalog YAML files (default: the one shipped with the service). */
  catalogDir?: string;
  /** Base path the gateway serves the REST API under; catalog paths are derived from it. */
  basePath?: string;
  /** Folder of compiled catalogs (default: dist/compiled-catalog); false compiles in memory and stores none. */
  compiledDir?: string | false;
  logger: Logger;
  /** host:port to bind, e.g. "0.0.0.0:50051" or "127.0.0.1:0". */
  bindAddress: string;
  /** Grace for in-flight calls on stop before they are cut (default 15 s). */
  grpcStopGraceMs?: number;
}

export interface CatalogApp {
  port: number;
  /** The catalog being served. */
  catalog: ServedCatalog;
  /** Health NOT_SERVING, then stop gRPC. Idempotent. */
  stop(): Promise<void>;
}

export async function startCatalogApp(opts: CatalogAppOptions): Promise<CatalogApp> {
  const { logger } = opts;
  // A catalog that fails validation stops the start: serving a wrong catalog is worse than none.
  const loaded = opts.catalog
    ? { catalog: servedInMemory(opts.catalog), from: "given" }
    : loadServedCatalog(opts.catalogDir ?? DEFAULT_CATALOG_DIR, { basePath: opts.basePath, compiledDir: opts.compiledDir });
  const { catalog } = loaded;
  if ("problem" in loaded && loaded.problem) logger.warn({ problem: loaded.problem }, "compiled catalog not used or not stored");
  logger.info(
    {
      version: catalog.version,
      from: loaded.from,
      compiledBytes: catalog.compiledBytes,
      ...("artifact" in loaded ? { artifact: loaded.artifact } : {}),
    },
    "catalog loaded",
  );

  const health = createHealth([CATALOG_SERVICE_NAME]);
  const server = createCatalogServer({ catalog, health, logger });
  const port = await bindServer(server, opts.bindAddress);
  health.setServing(true);
  logger.info({ port }, "catalog serving");

  let stopping: Promise<void> | undefined;
  return {
    port,
    catalog,
    stop() {
      stopping ??= (async () => {
        health.setServing(false);
        await stopServer(server, opts.grpcStopGraceMs ?? 15_000);
      })();
      return stopping;
    },
  };
}

/** A catalog built by the caller, compiled in memory. */
function servedInMemory(index: CatalogIndex): ServedCatalog {
  const read = readCompiled(compileCatalog(index, "in-memory"), "in-memory");
  if ("problem" in read) throw new Error(`the catalog given does not compile: ${read.problem}`);
  return servedCatalogOf(read.header, read.body);
}
