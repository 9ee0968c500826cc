// ScreenshotOne (web.screenshot): GET /take?url=&format=png|jpeg&full_page=&block_ads=true&block_cookie_banners=true
// &response_type=json&timeout=<s> (`X-Access-Key` on direct routes, keeping the key out of the URL); `timeout`
// (seconds, 5..90 at ScreenshotOne, default 60) keeps the render within our provider deadline; 200
// {screenshot_url}, the rendered image stored by ScreenshotOne (our API answers JSON, never image bytes);
// errors {is_successful: false, error_code, error_message}.
import type { ProviderHttpRequest } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput } from "../domain/provider-port";
import { invalidResponse, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import { vendorDeadlineSeconds } from "./vendor-deadline";

const KEY = "screenshotone";

/** ScreenshotOne's smallest `timeout`, in seconds. */
const MIN_TIMEOUT_S = 5;
/** ScreenshotOne error codes about our account, not the caller's page. */
const ACCOUNT_CODES = new Set(["access_key_required", "access_key_invalid", "usage_limit_reached", "concurrency_limit_reached"]);

function format(input: CapabilityInput): string {
  const format = new InputReader(KEY, input).string("format") ?? "png";
  if (format !== "png" && format !== "jpeg") throw inputRefusal(KEY, "`format` must be png or jpeg", "format");
  return format;
}

function fullPage(input: CapabilityInput): boolean {
  return new InputReader(KEY, input).boolean("fullPage");
}

export const screenshotoneProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.screenshotone.com" },
  capabilities: {
    "web.screenshot": {
      request(input, ctx): ProviderHttpRequest {
        const read = new InputReader(KEY, input);
        const params = new URLSearchParams({
          url: read.string("url", true),
          format: format(input),
          full_page: String(fullPage(input)),
          block_ads: "true",
          block_cookie_banners: "true",
          response_type: "json",
          // ScreenshotOne's default (60 s) outlives our deadline: a render we stopped waiting for is still billed.
          timeout: String(Math.max(MIN_TIMEOUT_S, vendorDeadlineSeconds(ctx))),
        });
        return {
          method: "GET",
          url: `${ctx.baseUrl}/take?${params.toString()}`,
          headers: ourKeyAs(ctx, "X-Access-Key"),
        };
      },
      parse(res, input) {
        if (res.status !== 200) {
          const code = stringField(res.body, "error_code");
          throw vendorError(KEY, res, {
            code,
            message: stringField(res.body, "error_message"),
            ...(code && ACCOUNT_CODES.has(code) ? { blame: "provider" } : {}),
          });
        }
        const imageUrl = stringField(res.body, "screenshot_url");
        if (!imageUrl) throw invalidResponse(KEY, res, "without screenshot_url");
        return { status: "completed", data: { imageUrl, format: format(input), fullPage: fullPage(input) } };
      },
    },
  },
});
