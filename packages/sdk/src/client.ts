// The Agentic API client: catalog and contracts, recommend, execute (one idempotency key per call,
// reused on every try, so a retry never pays twice), executions, wallet and usage (cursors followed
// for the caller), and `raw` for anything else. Runs wherever fetch does.
import { Transport, type QueryValue, type RawResponse, type RequestSpec } from "./transport";
import { DEFAULT_RETRY } from "./retry";
import type {
  CallOptions,
  CapabilityCatalogEntry,
  CapabilityContract,
  ClientOptions,
  DomainCatalogEntry,
  ExecuteRequest,
  ExecuteResult,
  ExecutionStatusResponse,
  GenericExecutionResponse,
  RecommendRequest,
  RecommendationResponse,
  RouteCatalogEntry,
  RouteRequest,
  RouteTaskResponse,
  UsageItem,
  UsageListOptions,
  UsageResponse,
  WalletResponse,
} from "./types";

/** Where `npm start` serves the API. */
export const DEFAULT_AGENTIC_API_BASE_URL = "http://localhost:8080/api/agentic-api";
export const DEFAULT_TIMEOUT_MS = 60_000;
/** The API's largest page of usage items. */
const USAGE_PAGE_MAX = 100;

const segment = (value: string) => encodeURIComponent(value);
const capabilityPath = (domain: string, capability: string) => `/domains/${segment(domain)}/capabilities/${segment(capability)}`;
const call = (opts: CallOptions = {}) => ({
  ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  ...(opts.signal ? { signal: opts.signal } : {}),
});

export class AgenticApiClient {
  private readonly transport: Transport;

  constructor(opts: ClientOptions = {}) {
    if (typeof (opts.fetch ?? globalThis.fetch) !== "function")
      throw new TypeError("no fetch: pass one as options.fetch (Node 20+ and browsers have it)");
    this.transport = new Transport({
      baseUrl: (opts.baseUrl ?? DEFAULT_AGENTIC_API_BASE_URL).replace(/\/+$/, ""),
      apiKey: opts.apiKey,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: { ...DEFAULT_RETRY, ...opts.retry },
      // Bound to globalThis: some runtimes refuse a fetch called as a method of another object.
      fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      headers: opts.headers ?? {},
    });
  }

  private async get<T>(path: string, opts: CallOptions & { auth?: boolean; query?: Record<string, QueryValue> } = {}): Promise<T> {
    const { auth, query, ...rest } = opts;
    return (await this.transport.request<T>({ method: "GET", path, ...(query ? { query } : {}), auth: auth ?? true, ...call(rest) })).data;
  }

  /** Domains, capabilities, routes and contracts. No API key needed. */
  readonly catalog = {
    domains: {
      list: (opts?: CallOptions) => this.get<DomainCatalogEntry[]>("/domains", { ...opts, auth: false }),
      get: (domain: string, opts?: CallOptions) => this.get<DomainCatalogEntry>(`/domains/${segment(domain)}`, { ...opts, auth: false }),
    },
    capabilities: {
      list: (domain: string, opts?: CallOptions) =>
        this.get<CapabilityCatalogEntry[]>(`/domains/${segment(domain)}/capabilities`, { ...opts, auth: false }),
      get: (domain: string, capability: string, opts?: CallOptions) =>
        this.get<CapabilityCatalogEntry>(capabilityPath(domain, capability), { ...opts, auth: false }),
      contract: (domain: string, capability: string, opts?: CallOptions) =>
        this.get<CapabilityContract>(`${capabilityPath(domain, capability)}/contract`, { ...opts, auth: false }),
      routes: (domain: string, capability: string, opts?: CallOptions) =>
        this.get<RouteCatalogEntry[]>(`${capabilityPath(domain, capability)}/routes`, { ...opts, auth: false }),
    },
    routes: {
      /** Every route of every capability of a domain. */
      list: (domain: string, opts?: CallOptions) =>
        this.get<RouteCatalogEntry[]>(`/domains/${segment(domain)}/routes`, { ...opts, auth: false }),
    },
  };

  /**
   * Intent routing (free, no key needed): the capabilities that do a task written in words, best
   * first, whether nothing does (`abstained`) and the constraints the words state. With an API key
   * configured, the top match also says `canExecuteNow` for it. Don't know the capability? Start here.
   */
  async route(req: RouteRequest): Promise<RouteTaskResponse> {
    const answer = await this.transport.request<RouteTaskResponse>({
      method: "POST",
      path: req.domain !== undefined ? `/domains/${segment(req.domain)}/route` : "/route",
      body: { task: req.task, ...(req.limit !== undefined ? { limit: req.limit } : {}) },
      ...call(req),
    });
    return answer.data;
  }

  /** Recommend (free) and execute (paid). */
  readonly capabilities = {
    /** Scores every route for this input and says which would run, at what price, and what blocks it. Free. */
    recommend: async <D extends string, C extends string>(req: RecommendRequest<D, C>): Promise<RecommendationResponse> => {
      const answer = await this.transport.request<RecommendationResponse>({
        method: "POST",
        path: `${capabilityPath(req.domain, req.capability)}/recommend`,
        ...(req.limit !== undefined ? { query: { limit: req.limit } } : {}),
        body: req.input ?? {},
        ...call(req),
      });
      return answer.data;
    },

    /**
     * Performs the paid operation. Every try of this call carries the same Idempotency-Key, so the
     * API runs and charges it at most once however many tries it takes; only failures a repeat can
     * fix are tried again (no answer, a 5xx, IDEMPOTENCY_IN_PROGRESS), never another 4xx.
     */
    execute: async <D extends string, C extends string>(req: ExecuteRequest<D, C>): Promise<ExecuteResult> => {
      const idempotencyKey = req.idempotencyKey ?? globalThis.crypto.randomUUID();
      const spec: RequestSpec = {
        method: "POST",
        path: `${capabilityPath(req.domain, req.capability)}/execute`,
        body: {
          ...(req.input as object),
          ...(req.provider !== undefined ? { provider: req.provider } : {}),
          ...(req.routeKey !== undefined ? { routeKey: req.routeKey } : {}),
          ...(req.allowFallback !== undefined ? { allowFallback: req.allowFallback } : {}),
        },
        headers: { "idempotency-key": idempotencyKey, ...(req.agentName !== undefined ? { "agent-name": req.agentName } : {}) },
        ...(req.retry ? { retry: req.retry } : {}),
        ...call(req),
      };
      const answer = await this.transport.request<GenericExecutionResponse>(spec);
      return withMeta(answer, idempotencyKey);
    },
  };

  readonly executions = {
    /** Where one execution stands (its id is the result's lastResponse.executionId, or an error's executionId). */
    get: (executionId: string, opts?: CallOptions) => this.get<ExecutionStatusResponse>(`/executions/${segment(executionId)}`, opts),
  };

  readonly wallet = {
    /** The caller's credit balance (1000 credits = 1 USD). */
    get: (opts?: CallOptions) => this.get<WalletResponse>("/wallet", opts),
  };

  readonly usage = {
    /** Up to `limit` usage items (default 20), newest first, following the API's cursors as needed. */
    list: async (opts: UsageListOptions = {}): Promise<UsageItem[]> => {
      const limit = opts.limit ?? 20;
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError("usage.list: limit must be a positive integer");
      const items: UsageItem[] = [];
      for await (const item of this.usage.iterate({ ...opts, limit })) {
        items.push(item);
        if (items.length >= limit) break;
      }
      return items;
    },

    /** Every usage item matching the filters, newest first, a page at a time behind the scenes. */
    iterate: (opts: UsageListOptions = {}): AsyncGenerator<UsageItem> => this.usagePages(opts),
  };

  /** The escape hatch: any request, answered as it came (status, headers, parsed body), never thrown for a status. */
  readonly raw = {
    request: <T = unknown>(spec: RequestSpec): Promise<RawResponse<T>> => this.transport.raw<T>(spec),
  };

  private async *usagePages(opts: UsageListOptions): AsyncGenerator<UsageItem> {
    const { limit, pageSize, from, to, agentName, capabilityKey, kind, ...rest } = opts;
    const query = {
      limit: Math.min(USAGE_PAGE_MAX, pageSize ?? limit ?? USAGE_PAGE_MAX),
      from: from instanceof Date ? from.toISOString() : from,
      to: to instanceof Date ? to.toISOString() : to,
      agentName,
      capabilityKey,
      kind,
    };
    let cursor: string | undefined;
    do {
      const page = await this.get<UsageResponse>("/usage", { ...rest, query: { ...query, cursor } });
      yield* page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
}

function withMeta(answer: RawResponse<GenericExecutionResponse>, idempotencyKey: string): ExecuteResult {
  const meta = {
    status: answer.status,
    headers: answer.headers,
    executionId: answer.headers.get("execution-id") ?? undefined,
    replayed: answer.headers.get("idempotent-replayed") === "true",
    idempotencyKey,
    attempts: answer.attempts,
  };
  // Not enumerable: JSON.stringify and spreading see the API's body only.
  return Object.defineProperty({ ...answer.data }, "lastResponse", { value: meta, enumerable: false }) as ExecuteResult;
}

/** The same client under the name other SDKs of this API use. */
export const AgentRouterClient = AgenticApiClient;
export type AgentRouterClient = AgenticApiClient;
