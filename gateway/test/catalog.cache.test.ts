// Catalog answers are served from memory with a strong ETag: a client that has the answer gets
// 304, and answers keep flowing while the catalog service is briefly away.
import { startTestCatalog } from "@agentic/catalog/testing";
import { waitFor } from "@agentic/testing";
import { startTestGateway } from "./harness";

/** A first read as a client makes it: a 503 or 504 (a cold catalog call cut by its deadline on a busy machine) is asked again. */
async function firstRead(url: string): Promise<Response> {
  let res: Response | undefined;
  await waitFor(
    async () => {
      res = await fetch(url);
      return res.status !== 503 && res.status !== 504;
    },
    { what: `an answer other than 503 or 504 for ${url}`, timeoutMs: 15_000, intervalMs: 100 },
  );
  return res!;
}

describe("catalog answers from memory", () => {
  it("answers If-None-Match with 304 and an empty body", async () => {
    const catalog = await startTestCatalog();
    const gw = await startTestGateway({ catalogAddress: catalog.address });
    try {
      const first = await firstRead(`${gw.baseUrl}/domains/email/capabilities/send/contract`);
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^".+"$/);
      expect(first.headers.get("cache-control")).toBe("no-cache");
      const again = await fetch(`${gw.baseUrl}/domains/email/capabilities/send/contract`, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      const other = await fetch(`${gw.baseUrl}/domains/email/capabilities/send/contract`, { headers: { "if-none-match": '"stale"' } });
      expect(other.status).toBe(200);
      expect(await other.json()).toMatchObject({ capabilityKey: "email.send" });
    } finally {
      await gw.stop();
      await catalog.stop();
    }
  });

  it("gives every catalog GET a strong ETag and answers If-None-Match as RFC 9110 reads it", async () => {
    const catalog = await startTestCatalog();
    const gw = await startTestGateway({ catalogAddress: catalog.address });
    try {
      const paths = [
        "/domains",
        "/domains?limit=2",
        "/domains/email",
        "/domains/email/capabilities",
        "/domains/email/capabilities?limit=1",
        "/domains/email/routes",
        "/domains/email/routes?limit=2",
        "/domains/email/capabilities/send",
        "/domains/email/capabilities/send/routes",
        "/domains/email/capabilities/send/routes?limit=1",
        "/domains/email/capabilities/send/contract",
        "/capabilities",
        "/capabilities?status=live&provider=resend",
        "/routes",
        "/routes?provider=resend&limit=3",
        "/SKILL.md",
        "/llms.txt",
        "/openapi.json",
      ];
      for (const path of paths) {
        const url = `${gw.baseUrl}${path}`;
        const first = await firstRead(url);
        expect([path, first.status]).toEqual([path, 200]);
        const etag = first.headers.get("etag")!;
        expect([path, etag]).toEqual([path, expect.stringMatching(/^"[^"]+"$/)]);
        // Twice each: the second may be answered from memory before express.
        for (const ifNoneMatch of [etag, etag, `"other", ${etag}`, `W/${etag}`, "*"]) {
          const again = await fetch(url, { headers: { "if-none-match": ifNoneMatch } });
          expect([path, ifNoneMatch, again.status]).toEqual([path, ifNoneMatch, 304]);
          expect(again.headers.get("etag")).toBe(etag);
          expect(await again.text()).toBe("");
        }
        const changed = await fetch(url, { headers: { "if-none-match": '"other"' } });
        expect([path, changed.status]).toEqual([path, 200]);
        expect(changed.headers.get("etag")).toBe(etag);
      }
    } finally {
      await gw.stop();
      await catalog.stop();
    }
  });

  it("answers SKILL.md and llms.txt again from memory: the same bytes, Content-Type and headers as the first read", async () => {
    const catalog = await startTestCatalog();
    const gw = await startTestGateway({ catalogAddress: catalog.address });
    try {
      const docs = [
        ["/SKILL.md", "text/markdown; charset=utf-8"],
        ["/llms.txt", "text/plain; charset=utf-8"],
      ] as const;
      const firsts = new Map<string, { res: Response; text: string }>();
      for (const [path] of docs) {
        const res = await firstRead(`${gw.baseUrl}${path}`);
        firsts.set(path, { res, text: await res.text() });
      }
      // With the catalog gone only an answer kept in memory can come back.
      await catalog.stop();
      for (const [path, type] of docs) {
        const first = firsts.get(path)!;
        const again = await fetch(`${gw.baseUrl}${path}`);
        expect([path, again.status, again.headers.get("content-type")]).toEqual([path, 200, type]);
        expect(await again.text()).toBe(first.text);
        for (const name of ["content-type", "etag", "cache-control", "content-length", "x-content-type-options"])
          expect([path, name, again.headers.get(name)]).toEqual([path, name, first.res.headers.get(name)]);
      }
    } finally {
      await gw.stop();
      await catalog.stop();
    }
  });

  it("keeps serving an answer it has while the catalog is down, and 503s what it has not", async () => {
    const catalog = await startTestCatalog();
    const gw = await startTestGateway({ catalogAddress: catalog.address });
    try {
      const before = await (await fetch(`${gw.baseUrl}/domains`)).json();
      await catalog.stop();
      const during = await fetch(`${gw.baseUrl}/domains`);
      expect(during.status).toBe(200);
      expect(await during.json()).toEqual(before);
      expect((await fetch(`${gw.baseUrl}/domains/geo`)).status).toBe(503);
    } finally {
      await gw.stop();
    }
  });
});
