import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { llamaparseProvider } from "./llamaparse";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(llamaparseProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const ctx = { baseUrl: "https://api.cloud.llamaindex.ai", credentials: { apiKey: "llx-1" } };

describe("LlamaParse adapter (document.parse, document.parse.result)", () => {
  it("creates a cost_effective v2 parse job from the URL, capped at the pages one call is priced for", () => {
    expect(adapter.buildRequest("document.parse", { fileUrl: "https://files.example/report.pdf" }, ctx)).toEqual({
      method: "POST",
      url: "https://api.cloud.llamaindex.ai/api/v2/parse",
      headers: { authorization: "Bearer llx-1" },
      body: { source_url: "https://files.example/report.pdf", tier: "cost_effective", version: "latest", page_ranges: { max_pages: 10 } },
    });
    expect(adapter.buildRequest("document.parse.result", { jobId: "a/b" }, ctx)).toEqual({
      method: "GET",
      url: "https://api.cloud.llamaindex.ai/api/v2/parse/a%2Fb?expand=markdown",
      headers: { authorization: "Bearer llx-1" },
    });
    expect(() => adapter.buildRequest("document.parse", { fileUrl: "ftp://x/a.pdf" }, ctx)).toThrow(
      expect.objectContaining({ field: "fileUrl" }),
    );
  });

  it("declares the job a resource of its creator, readable by its owner only", () => {
    expect(adapter.resourceFields).toEqual({ "document.parse.result": { jobId: "document.parse.job" } });
    const created = adapter.parseResponse("document.parse", response(200, { id: "job-1", project_id: "p", status: "PENDING" }), {});
    expect(created).toEqual({
      status: "created",
      providerMessageId: "job-1",
      createdResources: [{ kind: "document.parse.job", resourceId: "job-1" }],
      data: { jobId: "job-1", status: "pending" },
    });
  });

  it("answers a running or failed job's status without pages, and maps {detail} errors", () => {
    const running = response(200, { job: { id: "job-1", project_id: "p", status: "RUNNING" } });
    expect(adapter.parseResponse("document.parse.result", running, { jobId: "job-1" }).data).toEqual({
      jobId: "job-1",
      status: "running",
      pages: [],
      error: null,
    });
    const failed = response(200, { job: { id: "job-1", status: "FAILED", error_message: "Failed to download" } });
    expect(adapter.parseResponse("document.parse.result", failed, { jobId: "job-1" }).data).toMatchObject({
      status: "failed",
      error: "Failed to download",
    });
    expect(() =>
      adapter.parseResponse(
        "document.parse",
        response(422, { detail: [{ loc: ["body", "source_url"], msg: "Input should be a valid URL" }] }),
        {},
      ),
    ).toThrow(expect.objectContaining({ status: 422, blame: "input" }));
    expect(() => adapter.parseResponse("document.parse", response(401, { detail: "Invalid API key" }), {})).toThrow(
      expect.objectContaining({ blame: "provider" }),
    );
    expect(() =>
      adapter.parseResponse("document.parse.result", response(200, { job: { id: "j", status: "WHATEVER" } }), { jobId: "j" }),
    ).toThrow(expect.objectContaining({ kind: "invalid_response" }));
  });

  it("parses a document through the sandbox: the job is created, then read with its markdown pages", async () => {
    const created = await routes.execute("llamaparse", "direct", "document.parse", { fileUrl: "https://files.example/q3-report.pdf" });
    const jobId = created.result.data.jobId as string;
    expect(created.result.createdResources).toEqual([{ kind: "document.parse.job", resourceId: jobId }]);
    const { result } = await routes.execute("llamaparse", "direct", "document.parse.result", { jobId });
    expect(result.data).toMatchObject({ jobId, status: "completed", error: null });
    const pages = result.data.pages as Array<{ pageNumber: number; markdown: string }>;
    expect(pages.map((p) => p.pageNumber)).toEqual([1, 2, 3]);
    expect(pages[0]?.markdown).toContain("page 1 of q3-report.pdf");
    expect(routes.sandbox().control.calls("llamaparse")[0]?.body).toMatchObject({ tier: "cost_effective", page_ranges: { max_pages: 10 } });
  });

  it("reports a job whose document could not be downloaded as failed, and an unknown job as the caller's 404", async () => {
    const created = await routes.execute("llamaparse", "direct", "document.parse", { fileUrl: "https://files.invalid/missing.pdf" });
    const { result } = await routes.execute("llamaparse", "direct", "document.parse.result", {
      jobId: created.result.data.jobId as string,
    });
    expect(result.data).toMatchObject({ status: "failed", pages: [], error: expect.stringContaining("Failed to download") });
    expect(await routes.executeError("llamaparse", "direct", "document.parse.result", { jobId: "no-such-job" })).toMatchObject({
      status: 404,
      blame: "input",
    });
  });
});
