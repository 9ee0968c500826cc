// ListCapabilityEntries: every capability with its routes and contract, a page at a time (compiled/capability-entries.ts).
import type { ListCapabilityEntriesRequest } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "../compiled";
import { checkedPage } from "./page";

export const listCapabilityEntries =
  (catalog: ServedCatalog) =>
  async (req: ListCapabilityEntriesRequest): Promise<Buffer> =>
    catalog.answers.listCapabilityEntries(...checkedPage(req));
