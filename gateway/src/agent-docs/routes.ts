// GET /SKILL.md and GET /llms.txt (no auth, like the catalog reads): agent instructions generated
// from the live catalog, kept rendered per catalog version in the gateway's catalog cache (emptied
// when the version changes) under their paths, so a repeated read is answered from memory before
// express like the catalog's JSON answers, with a strong ETag. Both render from one read of the
// catalog per version, kept until the version changes (what they name of each capability: a few MB at
// 100x today's catalog; a second read would cost its garbage again, which Node keeps as RSS).
import { Router } from "express";
import type { CatalogClient } from "@agentic/clients";
import type { RenderedCatalogCache } from "../catalog/rendered-cache";
import { sendRendered } from "../catalog/send-rendered";
import { renderLlmsTxt } from "./llms-txt";
import { renderSkillMd } from "./skill-md";
import { readCatalogSnapshot, type CatalogSnapshot } from "./snapshot";

export function agentDocsRoutes(catalog: CatalogClient, cache: RenderedCatalogCache): Router {
  const router = Router();
  let shared: { snapshot: Promise<CatalogSnapshot>; version?: string } | undefined;
  /** The snapshot of the version the cache knows: the read in flight, the one read for it, or a new read (a failed one is not kept). */
  const snapshotNow = (): Promise<CatalogSnapshot> => {
    if (shared && (shared.version === undefined || shared.version === cache.catalogVersion)) return shared.snapshot;
    const entry: { snapshot: Promise<CatalogSnapshot>; version?: string } = { snapshot: readCatalogSnapshot(catalog) };
    entry.snapshot.then(
      (s) => (entry.version = s.catalogVersion),
      () => shared === entry && (shared = undefined),
    );
    shared = entry;
    return entry.snapshot;
  };
  const serve = (path: string, contentType: string, render: (snapshot: CatalogSnapshot, basePath: string) => string) =>
    router.get(path, async (req, res) => {
      const basePath = req.baseUrl;
      // Kept under its path (the gateway serves one base path), so a repeated read is answered before express (cached-reads.ts).
      const rendered = await cache.getText(
        path,
        async () => {
          const snapshot = await snapshotNow();
          return { catalogVersion: snapshot.catalogVersion, text: render(snapshot, basePath), contentType };
        },
        path,
      );
      sendRendered(req, res, rendered);
    });
  serve("/SKILL.md", "text/markdown; charset=utf-8", renderSkillMd);
  serve("/llms.txt", "text/plain; charset=utf-8", renderLlmsTxt);
  return router;
}
