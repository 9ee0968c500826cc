// LlamaParse (LlamaCloud Parse API v2) stand-in (`Authorization: Bearer`): POST /api/v2/parse {source_url
// | file_id, tier, version, page_ranges?: {max_pages, target_pages}} → {id, project_id, status: PENDING};
// GET /api/v2/parse/<id>?expand=markdown → {job: {id, status, error_message}, markdown: {pages:
// [{page_number, markdown, success}]}}. It fetches nothing and parses at once: a job is COMPLETED when
// read (a three-page document whose text names the file), or FAILED when its URL's host ends in
// `.invalid` (the download failed). Errors are FastAPI's {detail} as LlamaCloud answers them.
import { randomUUID } from "node:crypto";
import {
  authToken,
  isObject,
  type SandboxVendor,
  type VendorContext,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

const detail = (status: number, message: unknown): VendorReply => ({ status, body: { detail: message } });
const invalid = (field: string, msg: string): VendorReply => detail(422, [{ loc: ["body", field], msg, type: "value_error" }]);

const TIERS = new Set(["fast", "cost_effective", "agentic", "agentic_plus"]);
const DOCUMENT_PAGES = 3;
const PROJECT_ID = "8c1d4b0e-5a2f-4c3b-9d7e-1f2a3b4c5d6e";

interface Job {
  id: string;
  sourceUrl: string;
  maxPages: number | undefined;
  createdAt: string;
}

export function llamaparseVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  const jobs = new Map<string, Job>();
  return {
    key: "llamaparse",
    price: { amountAtomic: priceAtomic, description: "LlamaParse job" },
    authenticate: (req) => (authToken(req, "Bearer") === apiKey ? undefined : detail(401, "Invalid API key")),
    errorReply: detail,
    routes: [
      { method: "POST", path: "/api/v2/parse", handle: (req, ctx) => create(jobs, req, ctx) },
      // Reading a job costs nothing at LlamaParse: the paid mounts price it at the minimum.
      { method: "GET", path: "/api/v2/parse/:jobId", priceAtomic: "1000", handle: (req) => read(jobs, req) },
    ],
  };
}

function create(jobs: Map<string, Job>, req: VendorRequest, ctx: VendorContext): VendorReply {
  const b = req.body;
  if (!isObject(b)) return invalid("body", "Field required");
  if (typeof b.tier !== "string" || !TIERS.has(b.tier))
    return invalid("tier", "Input should be 'fast', 'cost_effective', 'agentic' or 'agentic_plus'");
  if (typeof b.version !== "string" || b.version.length === 0) return invalid("version", "Field required");
  const url = b.source_url;
  if ((url === undefined || url === null) === (b.file_id === undefined || b.file_id === null))
    return detail(400, "Exactly one of file_id or source_url must be provided");
  if (typeof url !== "string" || !/^https?:\/\//.test(url)) return invalid("source_url", "Input should be a valid URL");
  const ranges = b.page_ranges;
  if (
    ranges !== undefined &&
    ranges !== null &&
    (!isObject(ranges) ||
      (ranges.max_pages !== undefined &&
        ranges.max_pages !== null &&
        (!Number.isInteger(ranges.max_pages) || (ranges.max_pages as number) < 1)))
  )
    return invalid("page_ranges", "max_pages must be a positive integer");
  const job: Job = {
    id: randomUUID(),
    sourceUrl: url,
    maxPages: isObject(ranges) && typeof ranges.max_pages === "number" ? ranges.max_pages : undefined,
    createdAt: ctx.now().toISOString(),
  };
  jobs.set(job.id, job);
  return {
    status: 200,
    body: {
      id: job.id,
      project_id: PROJECT_ID,
      status: "PENDING",
      created_at: job.createdAt,
      updated_at: job.createdAt,
      error_message: null,
      name: null,
    },
  };
}

function read(jobs: Map<string, Job>, req: VendorRequest): VendorReply {
  const job = jobs.get(req.params.jobId ?? "");
  if (!job) return detail(404, "Job not found");
  const failed = /^https?:\/\/[^/]*\.invalid(\/|$)/.test(job.sourceUrl);
  const head = {
    id: job.id,
    project_id: PROJECT_ID,
    status: failed ? "FAILED" : "COMPLETED",
    created_at: job.createdAt,
    updated_at: job.createdAt,
    error_message: failed ? `Failed to download file from ${job.sourceUrl}` : null,
    name: null,
  };
  const expand = (req.query.expand ?? "").split(",");
  if (failed || !expand.includes("markdown")) return { status: 200, body: { job: head } };
  const name = decodeURIComponent(job.sourceUrl.split(/[?#]/)[0]!.split("/").pop() || "document");
  const count = Math.min(DOCUMENT_PAGES, job.maxPages ?? DOCUMENT_PAGES);
  const pages = Array.from({ length: count }, (_, i) => ({
    page_number: i + 1,
    markdown: `# ${name}\n\n## Section ${i + 1}\n\nParsed content of page ${i + 1} of ${name}.\n\n| Quarter | Revenue |\n| --- | --- |\n| Q${i + 1} | ${(1.2 + i * 0.3).toFixed(1)}M |`,
    success: true,
  }));
  return { status: 200, body: { job: head, markdown: { pages } } };
}

export const llamaparseSandbox = {
  key: "llamaparse",
  apiKey: "llx-sandbox-key",
  priceAtomic: "1000",
  create: llamaparseVendor,
} as const satisfies SandboxVendor;
