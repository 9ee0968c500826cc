// The `Authorization: Bearer <key>` header most vendors take. Only a direct route has our key; on a
// paid route (x402, MPP) there is none, and the payment stands for it.
import type { ProviderContext } from "../domain/provider-port";

/** `{ Authorization: "Bearer <our key>" }` on a direct route, else no header. */
export function bearerAuth(ctx: Pick<ProviderContext, "credentials">): Record<string, string> {
  return ctx.credentials ? { Authorization: `Bearer ${ctx.credentials.apiKey}` } : {};
}
