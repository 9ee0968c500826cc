// components.schemas of POST /dev/init (development only): its request (routes/requests/dev-init.ts) and its
// answer, declared with zod.

import { z } from "zod";
import { jsonSchemaOf } from "../from-zod";
import { devInitBody } from "../../routes/requests/dev-init";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";

export function developmentSchemas(ex: Examples): Partial<Record<SchemaName, JsonObject>> {
  return {
    DevInitRequest: { ...jsonSchemaOf(devInitBody), examples: [ex.devInitRequest] },
  };
}

export function developmentAnswers(ex: Examples) {
  const DevInitResponse = z
    .strictObject({
      success: z.literal(true),
      userId: z.string(),
      balanceCredits: z.int().min(0).meta({ description: "Balance after this call's credits were added." }),
      credited: z.int().min(0).meta({ description: "Credits added by this call." }),
      providers: z.array(z.string()),
      enabledProviders: z.array(z.string()),
      products: z.array(
        z
          .strictObject({ productKey: z.string(), startingPrice: z.number().min(0).meta({ description: "In credits." }) })
          .meta({ description: "Starting price of one product." }),
      ),
    })
    .meta({ description: "The funded development wallet and provider context.", examples: [ex.devInitResponse] });
  return { DevInitResponse };
}
