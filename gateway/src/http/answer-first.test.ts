// answerFirst: what its handler answers never reaches http.Server.prototype.emit (where tracing
// instruments every request), and everything else reaches it and the 'request' listeners unchanged.
import { createServer, Server, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { answerFirst } from "./answer-first";

describe("answerFirst", () => {
  const original = Server.prototype.emit;
  const seenByPrototype: string[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // Stands in for an instrumentation that wraps the prototype's emit, as OpenTelemetry's http one does.
    Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request") seenByPrototype.push((args[0] as IncomingMessage).url ?? "");
      return Reflect.apply(original, this, [event, ...args]) as boolean;
    } as Server["emit"];
    server = createServer((req, res) => res.end(`listener ${req.url}`));
    answerFirst(server, (req, res) => {
      if (req.url !== "/first") return false;
      res.end("answered first");
      return true;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    Server.prototype.emit = original;
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers its own requests without the prototype's emit, and passes the rest on to it", async () => {
    expect(await (await fetch(`${base}/first`)).text()).toBe("answered first");
    expect(await (await fetch(`${base}/other`)).text()).toBe("listener /other");
    expect(seenByPrototype).toEqual(["/other"]);
  });
});
