// Our vendor key as a request carries it: `Authorization: Bearer <key>` for most vendors, another header
// (or query parameter) for the rest. Only a direct route has our key; on a paid route (x402, MPP) there
// is none, and the payment stands for it.
import type { ProviderContext } from "../domain/provider-port";

/** `{ [name]: <scheme><our key> }` on a direct route, else nothing: a header (`ourKeyAs(ctx, "x-api-key")`) or a query parameter. */
export function ourKeyAs(ctx: Pick<ProviderContext, "credentials">, name: string, scheme = ""): Record<string, string> {
  return ctx.credentials ? { [name]: `${scheme}${ctx.credentials.apiKey}` } : {};
}

/** `{ Authorization: "Bearer <our key>" }` on a direct route, else no header. */
export function bearerAuth(ctx: Pick<ProviderContext, "credentials">): Record<string, string> {
  return ourKeyAs(ctx, "Authorization", "Bearer ");
}
