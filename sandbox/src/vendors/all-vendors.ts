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
import { anthropicSandbox } from "./anthropic";
import { peopledatalabsSandbox } from "./peopledatalabs";
import { lobSandbox } from "./lob";
import { groqSandbox } from "./groq";
import { openrouterSandbox } from "./openrouter";
import { hunterSandbox } from "./hunter";
import { zerobounceSandbox } from "./zerobounce";
import { coingeckoSandbox } from "./coingecko";
import { openexchangeratesSandbox } from "./openexchangerates";
import { alphavantageSandbox } from "./alphavantage";
import { alchemySandbox } from "./alchemy";
import { etherscanSandbox } from "./etherscan";
import { mapboxSandbox } from "./mapbox";
import { googlemapsSandbox } from "./googlemaps";
import { duffelSandbox } from "./duffel";
import { mistralSandbox } from "./mistral";
import { llamaparseSandbox } from "./llamaparse";
import { resendSandbox } from "./resend";
import { sendgridSandbox } from "./sendgrid";
import { timeapiSandbox } from "./timeapi";
import { braveSandbox } from "./brave";
import { jinaSandbox } from "./jina";
import { screenshotoneSandbox } from "./screenshotone";
import { googletranslateSandbox } from "./googletranslate";
import { scrapecreatorsSandbox } from "./scrapecreators";
import { tavilySandbox } from "./tavily";
import { elevenlabsSandbox } from "./elevenlabs";
import { falSandbox } from "./fal";
import { perplexitySandbox } from "./perplexity";
import { amadeusSandbox } from "./amadeus";

export const SANDBOX_VENDORS = [
  anthropicSandbox,
  peopledatalabsSandbox,
  perplexitySandbox,
  lobSandbox,
  tavilySandbox,
  scrapecreatorsSandbox,
  groqSandbox,
  openrouterSandbox,
  googletranslateSandbox,
  screenshotoneSandbox,
  jinaSandbox,
  hunterSandbox,
  zerobounceSandbox,
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
  openexchangeratesSandbox,
  alphavantageSandbox,
  alchemySandbox,
  etherscanSandbox,
  mapboxSandbox,
  googlemapsSandbox,
  duffelSandbox,
  falSandbox,
  elevenlabsSandbox,
  mistralSandbox,
  llamaparseSandbox,
  amadeusSandbox,
] as const;
