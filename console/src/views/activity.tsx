// Activity: usage a page at a time with the API's cursor; the filters (day range, agent, capability, kind) and the
// cursor are the URL's query, so a view can be shared. Export streams every filtered row to a CSV file.
import { useState } from "preact/hooks";
import { useApi } from "../use-api";
import type { UsagePage } from "../types";
import { go, type Place } from "../route";
import { ErrorNote, Loading } from "../widgets";
import { UsageTable } from "./usage-table";
import { exportCsv } from "../csv-export";
import { ApiError } from "../api";

const FILTERS = ["from", "to", "agentName", "capabilityKey", "kind"] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

/** GET /usage's query for the filters: days (YYYY-MM-DD, UTC) become the [from, to) range, `to` inclusive of its day. */
export function usageQuery(filters: Filters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(extra);
  if (filters.from) q.set("from", `${filters.from}T00:00:00Z`);
  if (filters.to) q.set("to", new Date(Date.parse(`${filters.to}T00:00:00Z`) + 86_400_000).toISOString());
  for (const name of ["agentName", "capabilityKey", "kind"] as const) if (filters[name]) q.set(name, filters[name]!);
  return q.toString();
}

export function Activity({ place }: { place: Place }) {
  const filters: Filters = Object.fromEntries(FILTERS.map((f) => [f, place.query.get(f) ?? undefined]));
  const cursor = place.query.get("cursor") ?? undefined;
  const page = useApi<UsagePage>(`/usage?${usageQuery(filters, { limit: "50", ...(cursor ? { cursor } : {}) })}`);
  const [exporting, setExporting] = useState<string>();
  const [exportError, setExportError] = useState<ApiError>();

  const apply = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    go(["activity"], Object.fromEntries(FILTERS.map((f) => [f, String(form.get(f) ?? "") || undefined])));
  };
  const startExport = async () => {
    setExportError(undefined);
    try {
      await exportCsv(`/usage/export?${usageQuery(filters)}`, (rows) => setExporting(`${rows} rows…`));
      setExporting(undefined);
    } catch (err) {
      setExporting(undefined);
      setExportError(err instanceof ApiError ? err : new ApiError(0, "EXPORT", String(err), ""));
    }
  };

  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <form class="filters" onSubmit={apply}>
        <label>
          From day <input type="date" name="from" value={filters.from ?? ""} />
        </label>
        <label>
          To day <input type="date" name="to" value={filters.to ?? ""} />
        </label>
        <label>
          Agent <input name="agentName" value={filters.agentName ?? ""} />
        </label>
        <label>
          Capability <input name="capabilityKey" placeholder="email.send" value={filters.capabilityKey ?? ""} />
        </label>
        <label>
          Kind
          <select name="kind" value={filters.kind ?? ""}>
            <option value="">all</option>
            {["charge", "grant", "refund", "adjustment", "top_up"].map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Apply</button>
        <button type="button" onClick={startExport} disabled={exporting !== undefined}>
          {exporting ? `Exporting ${exporting}` : "Export CSV"}
        </button>
      </form>
      {exportError && <ErrorNote error={exportError} />}
      {page.error && <ErrorNote error={page.error} />}
      {page.loading && <Loading />}
      {page.answer && (
        <>
          <UsageTable items={page.answer.body.items} caption="Usage, newest first" />
          <nav class="pager" aria-label="Pages">
            {cursor && (
              <button type="button" onClick={() => history.back()}>
                Previous page
              </button>
            )}
            {page.answer.body.nextCursor && (
              <button type="button" onClick={() => go(["activity"], { ...filters, cursor: page.answer!.body.nextCursor! })}>
                Next page
              </button>
            )}
          </nav>
        </>
      )}
    </section>
  );
}
