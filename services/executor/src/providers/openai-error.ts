// OpenAI's error body, shared by every endpoint of OpenAI-compatible APIs: {error: {message, type, param, code}}.
import type { RailResponse } from "../domain/rail-port";
import type { ProviderError } from "../domain/provider-port";
import { isRecord, stringField, vendorError } from "./vendor-error";

export function openAiError(providerKey: string, res: RailResponse): ProviderError {
  const error = isRecord(res.body) && isRecord(res.body.error) ? res.body.error : undefined;
  return vendorError(providerKey, res, {
    code: stringField(error, "code") ?? stringField(error, "type"),
    message: stringField(error, "message"),
  });
}
