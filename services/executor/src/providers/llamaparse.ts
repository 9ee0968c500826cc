// LlamaParse, the LlamaCloud Parse API v2 (document.parse, document.parse.result; `Authorization: Bearer`
// on direct routes). Parsing is asynchronous at LlamaParse, and an execution is one vendor request, so
// it is two capabilities: document.parse creates the job (POST /api/v2/parse {source_url, tier, version,
// page_ranges: {max_pages}}) and answers its jobId, recorded as the caller's resource; document.parse.result
// reads it (GET /api/v2/parse/<jobId>?expand=markdown) and answers its status, with the markdown pages
// once it is completed. Errors are {detail} (a string, or FastAPI's list of field errors).
import type { RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { ProviderContext } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "llamaparse";

/** The resource kind of a parse job the caller created. */
const PARSE_JOB_KIND = "document.parse.job";
/** Pages one job may parse (what the route's per-call price covers). */
export const MAX_PAGES = 10;
/** The tier our price is computed for. */
const TIER = "cost_effective";
const STATUSES = new Set(["PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"]);

function detailOf(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (typeof body.detail === "string") return body.detail;
  if (Array.isArray(body.detail))
    return body.detail
      .filter(isRecord)
      .map((d) => `${Array.isArray(d.loc) ? d.loc.join(".") : ""}: ${String(d.msg)}`)
      .join("; ");
  return undefined;
}

const auth = (ctx: ProviderContext): Record<string, string> => ourKeyAs(ctx, "authorization", "Bearer ");

function checkStatus(res: RailResponse): void {
  if (res.status !== 200 && res.status !== 201) {
    const message = detailOf(res.body);
    throw vendorError(KEY, res, message ? { message } : {});
  }
}

export const llamaparseProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.cloud.llamaindex.ai" },
  capabilities: {
    "document.parse": {
      request(input, ctx) {
        const url = new InputReader(KEY, input).string("fileUrl", true).trim();
        if (!/^https?:\/\//i.test(url)) throw inputRefusal(KEY, "`fileUrl` must be an http(s) URL", "fileUrl");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/api/v2/parse`,
          headers: auth(ctx),
          body: { source_url: url, tier: TIER, version: "latest", page_ranges: { max_pages: MAX_PAGES } },
        };
      },
      parse(res) {
        checkStatus(res);
        const id = stringField(res.body, "id");
        const status = stringField(res.body, "status");
        if (!id || !status) throw invalidResponse(KEY, res, "without the job's id and status");
        return {
          status: "created",
          providerMessageId: id,
          createdResources: [{ kind: PARSE_JOB_KIND, resourceId: id }],
          data: { jobId: id, status: status.toLowerCase() },
        };
      },
    },
    "document.parse.result": {
      /** Only the caller that created a parse job may read it. */
      resourceFields: { jobId: PARSE_JOB_KIND },
      request(input, ctx) {
        const jobId = new InputReader(KEY, input).string("jobId", true).trim();
        return { method: "GET", url: `${ctx.baseUrl}/api/v2/parse/${encodeURIComponent(jobId)}?expand=markdown`, headers: auth(ctx) };
      },
      parse(res, input) {
        checkStatus(res);
        const job = isRecord(res.body) && isRecord(res.body.job) ? res.body.job : undefined;
        const status = stringField(job, "status");
        if (!job || !status || !STATUSES.has(status)) throw invalidResponse(KEY, res, "without a job status");
        const jobId = stringField(job, "id") ?? new InputReader(KEY, input).string("jobId", true);
        if (status !== "COMPLETED")
          return {
            status: "completed",
            data: { jobId, status: status.toLowerCase(), pages: [], error: stringField(job, "error_message") ?? null },
          };
        const markdown = isRecord(res.body) && isRecord(res.body.markdown) ? res.body.markdown : undefined;
        const pages = markdown && Array.isArray(markdown.pages) ? markdown.pages.filter(isRecord) : undefined;
        if (!pages) throw invalidResponse(KEY, res, "completed without markdown pages");
        return {
          status: "completed",
          data: {
            jobId,
            status: "completed",
            pages: pages.map((p) => ({
              pageNumber: typeof p.page_number === "number" ? p.page_number : null,
              ...(typeof p.markdown === "string" ? { markdown: p.markdown } : { error: stringField(p, "error") ?? "page not parsed" }),
            })),
            error: null,
          },
        };
      },
    },
  },
});
