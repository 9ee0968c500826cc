// The direct rail (network "direct", settlement "api_key"): the request goes out as built, with the
// vendor key the adapter put in it; the vendor bills our account. A 402 is just a vendor answer here.
import { exchange, prepareRequest } from "./http-exchange";
import type { ProviderHttpRequest, Rail, RailResponse, SendOptions } from "../domain/rail-port";

export class DirectRail implements Rail {
  readonly network = "direct" as const;

  async send(req: ProviderHttpRequest, opts: SendOptions): Promise<RailResponse> {
    const res = await exchange(prepareRequest(req), opts.signal, {}, opts.maxResponseBytes);
    return { ...res, payment: { rail: "api_key" } };
  }
}
