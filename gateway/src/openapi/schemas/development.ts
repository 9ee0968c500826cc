// components.schemas of POST /dev/init (development only).

import { arrayOf, bool, int, num, objectSchema, opt, req, str, strings } from "../json-schema";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";

export function developmentSchemas(ex: Examples): Partial<Record<SchemaName, JsonObject>> {
  return {
    DevInitRequest: objectSchema(
      "Development wallet to fund. Both fields are optional.",
      {
        userId: opt(
          str("User whose wallet is funded; `dev-user` when omitted.", { minLength: 1, maxLength: 128, pattern: "^[\\w.@:-]+$" }),
        ),
        balanceCredits: opt(
          int("Credits to add to the wallet (not the balance to set); 1000 when omitted.", { minimum: 1, maximum: 100_000_000 }),
        ),
      },
      { examples: [ex.devInitRequest] },
    ),

    DevInitResponse: objectSchema(
      "The funded development wallet and provider context.",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        balanceCredits: req(int("Balance after this call's credits were added.", { minimum: 0 })),
        credited: req(int("Credits added by this call.", { minimum: 0 })),
        providers: req(strings()),
        enabledProviders: req(strings()),
        products: req(
          arrayOf(
            objectSchema("Starting price of one product.", {
              productKey: req(str()),
              startingPrice: req(num("In credits.", { minimum: 0 })),
            }),
          ),
        ),
      },
      { examples: [ex.devInitResponse] },
    ),
  };
}
