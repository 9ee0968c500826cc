// OpenRouter stand-in (model list is public: no key needed): GET /models → {data: [{id, canonical_slug,
// name, created, description, context_length, architecture, pricing: {prompt, completion, request, image}
// (USD per token as decimal strings), top_provider, supported_parameters}]}; errors {error: {code, message}}.
import type { SandboxVendor, VendorDefinition, VendorOptions, VendorReply } from "../http/vendor";

interface ListedModel {
  id: string;
  name: string;
  context: number;
  maxOutput: number | null;
  prompt: string;
  completion: string;
}

const MODELS: readonly ListedModel[] = [
  {
    id: "openai/gpt-4o-mini",
    name: "OpenAI: GPT-4o-mini",
    context: 128000,
    maxOutput: 16384,
    prompt: "0.00000015",
    completion: "0.0000006",
  },
  { id: "openai/gpt-4.1", name: "OpenAI: GPT-4.1", context: 1047576, maxOutput: 32768, prompt: "0.000002", completion: "0.000008" },
  {
    id: "anthropic/claude-3.5-haiku",
    name: "Anthropic: Claude 3.5 Haiku",
    context: 200000,
    maxOutput: 8192,
    prompt: "0.0000008",
    completion: "0.000004",
  },
  {
    id: "deepseek/deepseek-chat",
    name: "DeepSeek: DeepSeek V3",
    context: 163840,
    maxOutput: null,
    prompt: "0.00000027",
    completion: "0.0000011",
  },
  {
    id: "meta-llama/llama-3.1-8b-instruct",
    name: "Meta: Llama 3.1 8B Instruct",
    context: 131072,
    maxOutput: 8192,
    prompt: "0.00000002",
    completion: "0.00000005",
  },
];

function error(status: number, message: string): VendorReply {
  return { status, body: { error: { code: status, message } } };
}

export function openrouterVendor({ priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "openrouter",
    price: { amountAtomic: priceAtomic, description: "OpenRouter model list" },
    errorReply: error,
    routes: [
      {
        method: "GET",
        path: "/models",
        handle: () => ({
          status: 200,
          body: {
            data: MODELS.map((m) => ({
              id: m.id,
              canonical_slug: m.id,
              name: m.name,
              created: 1721260800,
              description: `${m.name} through OpenRouter.`,
              context_length: m.context,
              architecture: { modality: "text->text", input_modalities: ["text"], output_modalities: ["text"], tokenizer: "Other" },
              pricing: { prompt: m.prompt, completion: m.completion, request: "0", image: "0" },
              top_provider: { context_length: m.context, max_completion_tokens: m.maxOutput, is_moderated: m.id.startsWith("openai/") },
              per_request_limits: null,
              supported_parameters: ["max_tokens", "temperature", "top_p", "stop", "tools"],
            })),
          },
        }),
      },
    ],
  };
}

/** OpenRouter's model list is public: no API key on its direct mount. */
export const openrouterSandbox = {
  key: "openrouter",
  priceAtomic: "1000",
  create: openrouterVendor,
} as const satisfies SandboxVendor;
