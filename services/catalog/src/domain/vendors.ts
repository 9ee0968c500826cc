// Vendor names that must never become a domain key or a capability key part, even when no route
// uses them yet (provider choice belongs to routes). The loader also rejects every providerKey
// declared in _providers.yaml; this list catches well-known vendors that are not declared there.

/** Lowercase vendor names; generic words that double as product nouns (e.g. "booking") are left out on purpose. */
export const KNOWN_VENDORS: ReadonlySet<string> = new Set([
  "agentmail", "alchemy", "alphavantage", "amadeus", "amazon", "anthropic", "apify", "apollo", "assemblyai",
  "aws", "ayrshare", "azure", "brave", "browserbase", "clearbit", "cohere", "coingecko", "deepgram", "deepl",
  "deepseek", "duffel", "elevenlabs", "etherscan", "exa", "facebook", "fal", "firecrawl", "gemini", "github",
  "google", "googlemaps", "groq", "hubspot", "hunter", "infura", "instagram", "jina", "linkedin", "lob",
  "mailgun", "mapbox", "microsoft", "mistral", "moralis", "openai", "openrouter", "perplexity", "peopledatalabs",
  "polygon", "postgrid", "postmark", "replicate", "resend", "salesforce", "scrapecreators", "scrapingbee",
  "screenshotone", "sendgrid", "serpapi", "skyscanner", "slack", "stripe", "tavily", "tiktok", "twilio",
  "twitter", "typefully", "urlbox", "youtube", "zerobounce",
]);
