// components.schemas of POST /dev/init (development only).

import { arrayOf, bool, int, num, objectSchema, req, str, strings } from "../json-schema";
import { jsonSchemaOf } from "../from-zod";
import { devInitBody } from "../../routes/requests/dev-init";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";

export function developmentSchemas(ex: Examples): Partial<Record<SchemaName, JsonObject>> {
  return {
    DevInitRequest: { ...jsonSchemaOf(devInitBody), examples: [ex.devInitRequest] },

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
