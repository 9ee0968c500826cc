// Lets a handler answer a request before the server emits it as 'request'. OpenTelemetry's http
// instrumentation wraps http.Server.prototype.emit, and even for a request its ignore hook leaves
// untraced it enters a context and patches the request's and the response's listener methods: that
// doubled the gateway's CPU per catalog read answered from memory (docs/performance.md). An own
// `emit` on this one server sees each request first; what the handler leaves goes on to the
// prototype's emit (instrumented or not) when head sampling keeps it, and around the instrumentation
// when it does not (emitRequestHeadSampled).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { emitRequestHeadSampled } from "@agentic/platform";

/** `answer` says true when it answered the request; false passes it on, untouched, to the 'request' listeners. */
export function answerFirst(server: Server, answer: (req: IncomingMessage, res: ServerResponse) => boolean): void {
  const emit = server.emit;
  server.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== "request") return Reflect.apply(emit, this, [event, ...args]) as boolean;
    const [req, res] = args as [IncomingMessage, ServerResponse];
    return answer(req, res) || emitRequestHeadSampled(this, emit, req, res);
  } as Server["emit"];
}
