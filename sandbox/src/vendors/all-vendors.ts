// Every vendor stand-in the sandbox serves: one line per vendor. Each is mounted three times (direct
// with its API key, x402 and MPP behind a payment gate); the key and price tables derive from this list.
import { agentmailSandbox } from "./agentmail";
import { apolloSandbox } from "./apollo";
import { ayrshareSandbox } from "./ayrshare";
import { deeplSandbox } from "./deepl";
import { deepseekSandbox } from "./deepseek";
import { exaSandbox } from "./exa";
import { firecrawlSandbox } from "./firecrawl";
import { openaiSandbox } from "./openai";
import { postmarkSandbox } from "./postmark";
import { coingeckoSandbox } from "./coingecko";
import { alphavantageSandbox } from "./alphavantage";
import { openexchangeratesSandbox } from "./openexchangerates";
import { resendSandbox } from "./resend";
import { sendgridSandbox } from "./sendgrid";
import { timeapiSandbox } from "./timeapi";
import { braveSandbox } from "./brave";

export const SANDBOX_VENDORS = [
  braveSandbox,
  resendSandbox,
  sendgridSandbox,
  postmarkSandbox,
  ayrshareSandbox,
  deeplSandbox,
  openaiSandbox,
  agentmailSandbox,
  exaSandbox,
  firecrawlSandbox,
  timeapiSandbox,
  deepseekSandbox,
  apolloSandbox,
  coingeckoSandbox,
  alphavantageSandbox,
  openexchangeratesSandbox,
] as const;
