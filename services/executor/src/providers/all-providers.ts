// Every provider the executor has an adapter for: one line per provider. The registry, the
// environment schema and the default hosts are all derived from this list.
import { agentmailProvider } from "./agentmail";
import { apolloProvider } from "./apollo";
import { ayrshareProvider } from "./ayrshare";
import { deeplProvider } from "./deepl";
import { deepseekProvider } from "./deepseek";
import { exaProvider } from "./exa";
import { firecrawlProvider } from "./firecrawl";
import { openaiProvider } from "./openai";
import { postmarkProvider } from "./postmark";
import type { ProviderModule } from "./provider-table";
import { anthropicProvider } from "./anthropic";
import { peopledatalabsProvider } from "./peopledatalabs";
import { lobProvider } from "./lob";
import { groqProvider } from "./groq";
import { openrouterProvider } from "./openrouter";
import { hunterProvider } from "./hunter";
import { zerobounceProvider } from "./zerobounce";
import { coingeckoProvider } from "./coingecko";
import { openexchangeratesProvider } from "./openexchangerates";
import { alphavantageProvider } from "./alphavantage";
import { alchemyProvider } from "./alchemy";
import { etherscanProvider } from "./etherscan";
import { mapboxProvider } from "./mapbox";
import { googlemapsProvider } from "./googlemaps";
import { duffelProvider } from "./duffel";
import { mistralProvider } from "./mistral";
import { llamaparseProvider } from "./llamaparse";
import { resendProvider } from "./resend";
import { sendgridProvider } from "./sendgrid";
import { timeapiProvider } from "./timeapi";
import { braveProvider } from "./brave";
import { jinaProvider } from "./jina";
import { screenshotoneProvider } from "./screenshotone";
import { googletranslateProvider } from "./googletranslate";
import { scrapecreatorsProvider } from "./scrapecreators";
import { tavilyProvider } from "./tavily";
import { elevenlabsProvider } from "./elevenlabs";
import { falProvider } from "./fal";
import { perplexityProvider } from "./perplexity";
import { amadeusProvider } from "./amadeus";

export const PROVIDER_MODULES: readonly ProviderModule[] = [
  anthropicProvider,
  peopledatalabsProvider,
  perplexityProvider,
  lobProvider,
  tavilyProvider,
  scrapecreatorsProvider,
  groqProvider,
  openrouterProvider,
  googletranslateProvider,
  screenshotoneProvider,
  jinaProvider,
  hunterProvider,
  zerobounceProvider,
  braveProvider,
  resendProvider,
  sendgridProvider,
  postmarkProvider,
  agentmailProvider,
  exaProvider,
  firecrawlProvider,
  apolloProvider,
  timeapiProvider,
  ayrshareProvider,
  deeplProvider,
  openaiProvider,
  deepseekProvider,
  coingeckoProvider,
  openexchangeratesProvider,
  alphavantageProvider,
  alchemyProvider,
  etherscanProvider,
  mapboxProvider,
  googlemapsProvider,
  duffelProvider,
  falProvider,
  elevenlabsProvider,
  mistralProvider,
  llamaparseProvider,
  amadeusProvider,
];
