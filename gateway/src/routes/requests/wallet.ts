// The query of GET /wallet, declared once: the route reads it with this object and the document's
// userId parameter is built from it. Outside production a support tool may read another user's wallet;
// anything but one non-empty value reads as no override (the parameter is advisory, never refused).
import { z } from "zod";

export const walletQuery = z.object({
  userId: z
    .string()
    .min(1)
    .optional()
    .catch(undefined)
    .meta({ description: "Reads the wallet of another user. Honoured only outside production; ignored in production." }),
});
