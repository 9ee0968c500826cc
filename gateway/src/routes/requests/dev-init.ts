// The body of POST /dev/init, declared once: the route parses with it and the document's DevInitRequest
// is built from it.
import { z } from "zod";

export const DEV_DEFAULT_USER = "dev-user";
export const DEV_DEFAULT_CREDITS = 1_000;

export const devInitBody = z
  .strictObject({
    userId: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .regex(/^[\w.@:-]+$/, "letters, digits and . _ @ : - only")
      .optional()
      .meta({ description: `User whose wallet is funded; \`${DEV_DEFAULT_USER}\` when omitted.` }),
    balanceCredits: z
      .number()
      .int("must be an integer")
      .min(1, "must be at least 1")
      .max(100_000_000)
      .optional()
      .meta({ description: `Credits to add to the wallet (not the balance to set); ${DEV_DEFAULT_CREDITS} when omitted.` }),
  })
  .meta({ description: "Development wallet to fund. Both fields are optional." });

export const DEV_INIT_HINT = 'Send {"userId"?: string, "balanceCredits"?: integer >= 1}.';
