// POST /dev/init (development only).

import type { JsonObject } from "../document";
import type { Examples } from "../examples";
import { ref } from "../json-schema";
import { jsonBody, ok, operation } from "../operation";

export function developmentPaths(ex: Examples): Record<string, Record<string, JsonObject>> {
  return {
    "/dev/init": {
      post: operation({
        operationId: "devInit",
        tag: "Development",
        summary: "Fund a development wallet",
        description:
          "Non-production helper: adds `balanceCredits` (default 1000) to the wallet of `userId` (default `dev-user`), creating it " +
          "when needed, and describes the providers and products it can use. Each call adds again. " +
          "Not offered in production (the path answers 404 there).",
        auth: false,
        requestBody: {
          required: false,
          description: "Optional: whose wallet, and how many credits to add.",
          content: jsonBody(ref("DevInitRequest"), ex.devInitRequest),
        },
        success: ok("The funded wallet.", ref("DevInitResponse"), ex.devInitResponse),
        errors: { "400": "BadRequest" },
      }),
    },
  };
}
