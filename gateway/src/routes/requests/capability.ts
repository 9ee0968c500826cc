// The path parameters of a domain's and a capability's resources (the catalog reads, recommend, execute,
// quote, a domain's intent routing), declared once: the routes parse with them and the document's
// domainKey and capabilityId parameters are built from them.
import { z } from "zod";

const domainKey = z.string().min(1).meta({ description: "Domain key.", example: "email" });

const capabilityId = z
  .string()
  .min(1)
  .meta({
    description:
      "Capability id inside the domain (e.g. `inbox-buy`). The dotted spelling (`inbox.buy`) and the whole capability key " +
      "(`email.inbox.buy`) answer the same resource; the response then names the canonical path in `Content-Location`.",
    example: "send",
  });

export const domainParams = z.object({ domainKey });
export const capabilityParams = z.object({ domainKey, capabilityId });
