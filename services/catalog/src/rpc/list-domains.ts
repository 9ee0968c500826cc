// ListDomains: every domain in catalog order (its compiled answer).
import type { ServedCatalog } from "../compiled";

export const listDomains = (catalog: ServedCatalog) => async (): Promise<Buffer> => catalog.answers.listDomains();
