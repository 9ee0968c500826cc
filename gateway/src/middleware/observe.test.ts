// The access-log policy: which finished requests get a line, at which level, and that the
// histogram hears of every one of them.
import pino from "pino";
import { Writable } from "node:stream";
import { RequestRecorder, type AccessLogPolicy, type FinishedRequest } from "./observe";

function recorder(policy: Partial<AccessLogPolicy>) {
  const lines: Array<{ level: number; msg: string; res: { statusCode: number } }> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  let served = 0;
  const rec = new RequestRecorder(
    pino({ level: "info" }, sink),
    { requestSeries: () => ({ observe: () => void served++ }) },
    { mode: "problems", slowMs: 1_000, sample: 0, ...policy },
  );
  return { rec, lines, served: () => served, flush: () => new Promise((r) => setImmediate(r)) };
}

const request = (over: Partial<FinishedRequest>): FinishedRequest => ({
  method: "POST",
  url: "/api/x",
  route: "/api/x",
  status: 200,
  ms: 3,
  ...over,
});

describe("RequestRecorder (ACCESS_LOG=problems)", () => {
  it("logs 5xx as errors; 402, 409, slow and aborted requests as warnings; nothing else", async () => {
    const { rec, lines, served, flush } = recorder({});
    for (const status of [200, 201, 304, 400, 401, 404, 429]) rec.record(request({ status }));
    rec.record(request({ status: 503 }));
    rec.record(request({ status: 402 }));
    rec.record(request({ status: 409 }));
    rec.record(request({ status: 200, ms: 1_500 }));
    rec.record(request({ status: 200, aborted: true }));
    await flush();
    expect(served()).toBe(12);
    expect(lines.map((l) => [l.level, l.res.statusCode, l.msg])).toEqual([
      [50, 503, "request errored"],
      [40, 402, "request completed"],
      [40, 409, "request completed"],
      [40, 200, "slow request"],
      [40, 200, "request aborted"],
    ]);
  });

  it("logs a sample of the rest, client errors as warnings", async () => {
    const { rec, lines, flush } = recorder({ sample: 1 });
    rec.record(request({ status: 200 }));
    rec.record(request({ status: 404 }));
    await flush();
    expect(lines.map((l) => [l.level, l.res.statusCode])).toEqual([
      [30, 200],
      [40, 404],
    ]);
  });

  it("logs nothing for probes, whatever the policy", async () => {
    const { rec, lines, served, flush } = recorder({ mode: "all" });
    rec.record(request({ status: 503 }), true);
    await flush();
    expect([lines, served()]).toEqual([[], 1]);
  });

  it("logs every request with ACCESS_LOG=all and none with off", async () => {
    const all = recorder({ mode: "all" });
    const off = recorder({ mode: "off" });
    for (const r of [all, off]) {
      r.rec.record(request({ status: 200 }));
      r.rec.record(request({ status: 500 }));
    }
    await Promise.all([all.flush(), off.flush()]);
    expect([all.lines.length, off.lines.length, off.served()]).toEqual([2, 0, 2]);
  });
});
