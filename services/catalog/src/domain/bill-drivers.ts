// What makes a route's vendor bill grow, as the catalog declares it per route (`billDrivers`), and
// its wire form. A fixed price only holds when every driver is bounded: the input by the contract's
// limits, an output by the vendor's own cap that the adapter sends (the call is then metered by what
// the vendor reports, within the hold that covers the cap), a mode by pinning the cheap one. The
// executor's money check (pricing.ts unboundedBill) refuses a route on our credentials with an
// unbounded driver. A route that declares none is billed by its input alone.
import { z } from "zod";
import type { BillDriver } from "@agentic/proto/catalog/v1";

export const BILL_DRIVERS = ["input", "output_tokens", "output_bytes", "pages", "proxy"] as const;
export const BILL_BOUNDS = ["contract", "vendor_cap", "pinned", "none"] as const;

/** Our price per unit is the vendor's plus this margin, as for tokens (derive.ts TOKEN_PRICE_MARGIN). */
const UNIT_PRICE_MARGIN = 0.25;
const CREDITS_PER_USD = 1000;

export const BillDriverSchema = z
  .strictObject({
    driver: z.enum(BILL_DRIVERS),
    bound: z.enum(BILL_BOUNDS),
    /** vendor_cap: the cap the adapter sends, in the driver's units; pinned: the fixed amount, if any. */
    maxUnits: z.number().int().positive().optional(),
    /** vendor_cap: units the route's price covers. */
    includedUnits: z.number().int().nonnegative().default(0),
    /** vendor_cap: the vendor's list price per 1M units, in USD (our price adds the margin). */
    usdPerMillionUnits: z.number().positive().optional(),
  })
  .refine((d) => d.bound !== "vendor_cap" || (d.maxUnits !== undefined && d.usdPerMillionUnits !== undefined), {
    error: "a vendor_cap bill driver needs maxUnits (the cap sent) and usdPerMillionUnits (what the vendor bills per unit)",
  })
  .refine((d) => d.maxUnits === undefined || d.includedUnits <= d.maxUnits, { error: "includedUnits must not exceed maxUnits" });
export type RawBillDriver = z.infer<typeof BillDriverSchema>;

/** The wire form; a route that declares no driver is billed by its input, bounded by its contract. */
export function toBillDrivers(raw: readonly RawBillDriver[] | undefined): BillDriver[] {
  if (!raw || raw.length === 0) return [{ driver: "input", bound: "contract", maxUnits: 0, includedUnits: 0, creditsPerMillionUnits: 0 }];
  return raw.map((d) => ({
    driver: d.driver,
    bound: d.bound,
    maxUnits: d.maxUnits ?? 0,
    includedUnits: d.includedUnits,
    creditsPerMillionUnits:
      d.usdPerMillionUnits === undefined ? 0 : Math.round(d.usdPerMillionUnits * CREDITS_PER_USD * (1 + UNIT_PRICE_MARGIN) * 1000) / 1000,
  }));
}
