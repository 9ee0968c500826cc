// Walks a paged catalog list (FilterCapabilities, FilterRoutes, ListCapabilityEntries) from offset 0:
// each RPC answers one page of at most its limit, the list's total and the catalog version it was cut
// from, and the next page starts after the items received (a page may hold fewer than asked).

/** One page of a catalog list, its items under a common name. */
export interface CatalogPage<T> {
  items: readonly T[];
  total: number;
  catalogVersion: string;
}

/**
 * Reads the pages of a list in order, passing each to `take`, until the total is read or `take`
 * answers false; true when the whole list was read.
 */
export async function forEachCatalogPage<T>(
  read: (offset: number) => Promise<CatalogPage<T>>,
  take: (page: CatalogPage<T>) => boolean | void,
): Promise<boolean> {
  for (let offset = 0; ;) {
    const page = await read(offset);
    if (take(page) === false) return false;
    offset += page.items.length;
    if (offset >= page.total || page.items.length === 0) return true;
  }
}
