// ScreenshotOne (web.screenshot): GET /take?url=&format=png|jpeg&full_page=&block_ads=true&block_cookie_banners=true
// &response_type=json&timeout=<s> (`X-Access-Key` on direct routes, keeping the key out of the URL); `timeout`
// (seconds, 5..90 at ScreenshotOne, default 60) keeps the render within our provider deadline; 200
// {screenshot_url}, the rendered image stored by ScreenshotOne (our API answers JSON, never image bytes);
// errors {is_successful: false, error_code, error_message}.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput, ProviderAdapter, ProviderContext, ProviderResult } from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";
import { vendorDeadlineSeconds } from "./vendor-deadline";

/** ScreenshotOne's smallest `timeout`, in seconds. */
const MIN_TIMEOUT_S = 5;
/** ScreenshotOne error codes about our account, not the caller's page. */
const ACCOUNT_CODES = new Set(["access_key_required", "access_key_invalid", "usage_limit_reached", "concurrency_limit_reached"]);

export class ScreenshotoneAdapter implements ProviderAdapter {
  readonly providerKey = "screenshotone";
  readonly capabilityKeys = ["web.screenshot"] as const;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const read = new InputReader(this.providerKey, input);
    const params = new URLSearchParams({
      url: read.string("url", true),
      format: this.format(input),
      full_page: String(this.fullPage(input)),
      block_ads: "true",
      block_cookie_banners: "true",
      response_type: "json",
      // ScreenshotOne's default (60 s) outlives our deadline: a render we stopped waiting for is still billed.
      timeout: String(Math.max(MIN_TIMEOUT_S, vendorDeadlineSeconds(ctx))),
    });
    return {
      method: "GET",
      url: `${ctx.baseUrl}/take?${params.toString()}`,
      headers: ctx.credentials ? { "X-Access-Key": ctx.credentials.apiKey } : {},
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse, input: CapabilityInput): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200) {
      const code = stringField(res.body, "error_code");
      throw vendorError(this.providerKey, res, {
        code,
        message: stringField(res.body, "error_message"),
        ...(code && ACCOUNT_CODES.has(code) ? { blame: "provider" } : {}),
      });
    }
    const imageUrl = stringField(res.body, "screenshot_url");
    if (!imageUrl) throw invalidResponse(this.providerKey, res, "without screenshot_url");
    return { status: "completed", data: { imageUrl, format: this.format(input), fullPage: this.fullPage(input) } };
  }

  private format(input: CapabilityInput): string {
    const format = new InputReader(this.providerKey, input).string("format") ?? "png";
    if (format !== "png" && format !== "jpeg") throw inputRefusal(this.providerKey, "`format` must be png or jpeg", "format");
    return format;
  }

  private fullPage(input: CapabilityInput): boolean {
    return new InputReader(this.providerKey, input).boolean("fullPage");
  }
}

export const screenshotoneProvider: ProviderModule = {
  providerKey: "screenshotone",
  defaultBaseUrls: { direct: "https://api.screenshotone.com" },
  create: () => new ScreenshotoneAdapter(),
};
