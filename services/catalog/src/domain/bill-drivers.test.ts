// A route's bill drivers as the catalog reads them: a vendor cap must say its cap and its unit price,
// our unit price adds the margin, and a route that declares none is billed by its input alone.
import { BillDriverSchema, toBillDrivers } from "./bill-drivers";

describe("bill drivers", () => {
  it("refuse a vendor cap without the cap sent or the vendor's unit price, and included units above the cap", () => {
    expect(BillDriverSchema.safeParse({ driver: "output_tokens", bound: "vendor_cap", usdPerMillionUnits: 0.05 }).success).toBe(false);
    expect(BillDriverSchema.safeParse({ driver: "output_tokens", bound: "vendor_cap", maxUnits: 100_000 }).success).toBe(false);
    expect(
      BillDriverSchema.safeParse({ driver: "pages", bound: "vendor_cap", maxUnits: 5, includedUnits: 6, usdPerMillionUnits: 830 }).success,
    ).toBe(false);
    expect(BillDriverSchema.safeParse({ driver: "colour", bound: "pinned" }).success).toBe(false);
  });

  it("price a metered unit at the vendor's price + 25 % in credits per 1M units; a route without drivers is billed by its input", () => {
    const jina = BillDriverSchema.parse({
      driver: "output_tokens",
      bound: "vendor_cap",
      maxUnits: 100_000,
      includedUnits: 16_000,
      usdPerMillionUnits: 0.05,
    });
    expect(toBillDrivers([jina])).toEqual([
      { driver: "output_tokens", bound: "vendor_cap", maxUnits: 100_000, includedUnits: 16_000, creditsPerMillionUnits: 62.5 },
    ]);
    expect(toBillDrivers(undefined)).toEqual([
      { driver: "input", bound: "contract", maxUnits: 0, includedUnits: 0, creditsPerMillionUnits: 0 },
    ]);
  });
});
