// The LlamaParse stand-in validates parse jobs as the Parse API v2 does (tier, version, exactly one of
// source_url and file_id, page_ranges), keeps each job, and answers it with markdown pages or a failure.
import { postJson, useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const auth = { authorization: "Bearer llx-sandbox-key" };
const create = (body: unknown, headers = auth) => postJson(`${sandbox().url}/llamaparse/api/v2/parse`, body, headers);
const read = async (id: string, expand = "markdown") => {
  const res = await fetch(`${sandbox().url}/llamaparse/api/v2/parse/${id}?expand=${expand}`, { headers: auth });
  return { status: res.status, body: (await res.json()) as any };
};
const job = { source_url: "https://files.example/annual-report.pdf", tier: "cost_effective", version: "latest" };

describe("LlamaParse stand-in", () => {
  it("creates a PENDING job and answers it COMPLETED with at most max_pages markdown pages", async () => {
    const created = await create({ ...job, page_ranges: { max_pages: 2 } });
    expect(created).toMatchObject({ status: 200, body: { status: "PENDING" } });
    const { status, body } = await read(created.body.id);
    expect(status).toBe(200);
    expect(body.job).toMatchObject({ id: created.body.id, status: "COMPLETED", error_message: null });
    expect(body.markdown.pages.map((p: any) => p.page_number)).toEqual([1, 2]);
    expect((await read(created.body.id, "text")).body.markdown).toBeUndefined();
  });

  it("answers a job whose document cannot be downloaded as FAILED, and an unknown job as 404", async () => {
    const created = await create({ ...job, source_url: "https://docs.invalid/a.pdf" });
    expect((await read(created.body.id)).body.job).toMatchObject({
      status: "FAILED",
      error_message: expect.stringContaining("Failed to download"),
    });
    expect(await read("no-such-job")).toEqual({ status: 404, body: { detail: "Job not found" } });
  });

  it("refuses bad keys and invalid jobs in FastAPI's {detail} format", async () => {
    expect(await create(job, { authorization: "Bearer nope" })).toMatchObject({ status: 401, body: { detail: "Invalid API key" } });
    expect((await create({ ...job, tier: "premium" })).status).toBe(422);
    expect(await create({ ...job, file_id: "f1" })).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining("Exactly one") },
    });
    const badRange = await create({ ...job, page_ranges: { max_pages: 0 } });
    expect(badRange).toMatchObject({ status: 422, body: { detail: [{ loc: ["body", "page_ranges"] }] } });
  });
});
