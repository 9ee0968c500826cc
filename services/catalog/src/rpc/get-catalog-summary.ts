// GetCatalogSummary: providers and executable products across the catalog (its compiled answer).
import type { ServedCatalog } from "../compiled";

export const getCatalogSummary = (catalog: ServedCatalog) => async (): Promise<Buffer> => catalog.answers.getCatalogSummary();
