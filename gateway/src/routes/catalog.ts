// Catalog and contract endpoints (no auth): read through the catalog service, rendered as the spec's resources.
import { Router } from "express";
import type { CatalogClient } from "@agentic/clients";
import { toCapabilityEntry, toContractEntry, toDomainEntry, toRouteEntry } from "../mappers/catalog";

export function catalogRoutes(catalog: CatalogClient): Router {
  const router = Router();

  router.get("/domains", async (_req, res) => {
    const { domains } = await catalog.listDomains({});
    res.json(domains.map(toDomainEntry));
  });

  router.get("/domains/:domainKey", async (req, res) => {
    const { domain } = await catalog.getDomain({ domainKey: req.params.domainKey });
    res.json(toDomainEntry(domain!));
  });

  router.get("/domains/:domainKey/capabilities", async (req, res) => {
    const { capabilities } = await catalog.listCapabilities({ domainKey: req.params.domainKey });
    res.json(capabilities.map(toCapabilityEntry));
  });

  router.get("/domains/:domainKey/routes", async (req, res) => {
    const { routes } = await catalog.listDomainRoutes({ domainKey: req.params.domainKey });
    res.json(routes.map(toRouteEntry));
  });

  router.get("/domains/:domainKey/capabilities/:capabilityId", async (req, res) => {
    const { capability } = await catalog.getCapability(req.params);
    res.json(toCapabilityEntry(capability!));
  });

  router.get("/domains/:domainKey/capabilities/:capabilityId/routes", async (req, res) => {
    const { routes } = await catalog.listCapabilityRoutes(req.params);
    res.json(routes.map(toRouteEntry));
  });

  router.get("/domains/:domainKey/capabilities/:capabilityId/contract", async (req, res) => {
    const { contract } = await catalog.getContract(req.params);
    res.json(toContractEntry(contract!));
  });

  return router;
}
