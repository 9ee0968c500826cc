// The provider port: an adapter turns a capability input into one vendor HTTP request and the
// vendor's answer into a normalized result (or, for a capability that needs several requests, runs a
// flow over VendorCalls), or says why it cannot (ProviderError); the registry gives
// the adapter configured for a provider on a route network, made from that provider's table in providers/.
// Providers never know which rail pays them.
import type { ProviderHttpRequest, RailResponse } from "./rail-port";

/** Where and as whom an adapter calls its vendor (from config, per provider). */
export interface ProviderContext {
  /** Vendor base URL, e.g. `https://api.resend.com` (OpenAI-compatible ones include `/v1`). */
  baseUrl: string;
  /** Our vendor key for direct routes; absent on paid (x402/MPP) routes, where payment replaces it. */
  credentials?: { apiKey: string };
  /** Account settings of the vendor, e.g. `defaultFrom` for email. */
  settings?: Readonly<Record<string, string>>;
  /** The execution's idempotency key; adapters forward it where the vendor deduplicates on one. */
  idempotencyKey?: string;
  /**
   * How long one vendor request may take, in ms (the executor's PROVIDER_TIMEOUT_MS): adapters ask the
   * vendor to finish within it (its own timeout parameter), since work it does after we gave up is billed to us.
   */
  timeoutMs?: number;
}

/** A capability input: the free-form JSON object the caller sent, already validated against the contract. */
export type CapabilityInput = Readonly<Record<string, unknown>>;

/** A vendor answer normalized for our API. */
export interface ProviderResult {
  /** `sent` (email), `created` (inbox), `quoted` (broadcast quote) or `completed`. */
  status: "sent" | "created" | "quoted" | "completed";
  /** The vendor's id for what it did (message id, request id), when it gives one. */
  providerMessageId?: string;
  /** Resources the call created on our vendor account for the caller (an inbox): recorded as theirs with the capture. */
  createdResources?: CreatedResource[];
  /** The normalized result (the execute response's `data`). */
  data: Record<string, unknown>;
  /** Tokens the vendor says it billed for the call (its `usage`), when it bills by token and said so. */
  usage?: TokenUsage;
  /** What the vendor reports billing a metered per-call route by (the catalog's bill drivers), e.g. `{ output_tokens: 5120 }`. */
  billedUnits?: BilledUnits;
}

/** Units a vendor reports billing, by bill driver (output_tokens, output_bytes, pages). */
export type BilledUnits = Readonly<Partial<Record<string, number>>>;

/** A vendor's token count for one call: what a per-token route is charged by. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A resource a vendor call created, e.g. `{ kind: "email.inbox", resourceId: "ada@agentmail.to" }`. */
export interface CreatedResource {
  kind: string;
  resourceId: string;
}

export interface ProviderAdapter {
  /** The catalog's providerKey, e.g. `resend`. */
  readonly providerKey: string;
  /** Capabilities this adapter implements, e.g. `["email.send"]`. */
  readonly capabilityKeys: readonly string[];
  /**
   * Input fields that name a resource the caller must own, per capability, with its kind:
   * `{ "email.send": { inboxId: "email.inbox" } }`. Before anything is held the executor checks the
   * caller owns each one named, and runs such a request only on this adapter's routes.
   */
  readonly resourceFields?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * Input fields holding a mailbox the message goes out as (`from`) or is answered to (`replyTo`), per
   * capability. Before anything is planned each must be the caller's to use: the platform sender, or a
   * resource of `kind` they own (domain/owned-senders.ts).
   */
  readonly senderFields?: Readonly<Record<string, readonly SenderField[]>>;
  /**
   * Approvals this adapter's capabilities issue and require (a broadcast post runs only the quote a
   * person approved): the executor records each issued one on our side and refuses a requiring call
   * whose approval it did not issue to this caller for this input, or that expired or was used.
   */
  readonly approvals?: readonly ApprovalRule[];
  /** The vendor request for a capability input; throws ProviderError (`invalid_input`, `unsupported_capability`). */
  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest;
  /** The normalized result of the vendor's answer to that request (same input); throws ProviderError. */
  parseResponse(capabilityKey: string, res: RailResponse, input: CapabilityInput): ProviderResult;
  /**
   * Capabilities whose call takes more than one vendor request (a token first, a job to poll), by key.
   * The executor runs the flow in place of sending buildRequest's request and parsing it; buildRequest
   * still checks the input when the route is planned and names the flow's main request. Direct routes
   * only: on a paid rail each request would be paid, so the executor refuses to run a flow there.
   */
  readonly flows?: Readonly<Record<string, ProviderFlow>>;
}

/** A multi-request vendor call: the same input and context as buildRequest, and the way to reach the vendor. */
export type ProviderFlow = (input: CapabilityInput, ctx: ProviderContext, vendor: VendorCalls) => Promise<ProviderResult>;

/** How a flow reaches its vendor: over the route's rail, within the attempt's deadline. */
export interface VendorCalls {
  /**
   * Sends one request (each within the provider timeout, all within the attempt's deadline); a vendor
   * error status is returned, not thrown. `acts`: the request makes the vendor do (and bill) something
   * (start a job); once one is answered 2xx, a later failure of the flow is reported as "the vendor
   * may have acted", so it is never retried on another route as if nothing had happened.
   */
  send(request: ProviderHttpRequest, opts?: { acts?: boolean }): Promise<RailResponse>;
  /** Waits between polls; rejects (a RailError timeout) when the attempt's deadline comes first. */
  pause(ms: number): Promise<void>;
  /** Milliseconds left before the attempt's deadline. */
  remainingMs(): number;
}

/**
 * - `http_4xx` / `http_5xx`: the vendor answered with an error status.
 * - `invalid_response`: a success status whose body is not what the vendor documents, or a redirect.
 * - `invalid_input`: the input cannot be expressed to this vendor (e.g. no sender address configured).
 * - `unsupported_capability`: the adapter was asked for a capability it does not implement (a routing bug).
 */
export type ProviderErrorKind = "http_4xx" | "http_5xx" | "invalid_response" | "invalid_input" | "unsupported_capability";

/**
 * A vendor call that did not produce a result. Two independent questions for the executor:
 * - `retryable`: may the same request succeed if tried again later? True only for transient answers
 *   (5xx, 408, 425, 429). Never true for `invalid_response`: the vendor may have acted (an email may be
 *   out), so repeating blindly could act twice.
 * - `blame`: `input` when the vendor refused what the caller asked (400, 404, 409, 422...): no other
 *   route will do better, so report it instead of falling back. `provider` when the vendor or our
 *   account with it failed (401/402/403 key or quota problems, 429, 5xx, bad answers): another route
 *   may succeed, so falling back is right.
 */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    readonly providerKey: string,
    message: string,
    readonly opts: {
      status?: number;
      retryable?: boolean;
      blame?: "input" | "provider";
      /** The vendor's error code or name (e.g. `validation_error`, `300`, `model_not_found`). */
      vendorCode?: string;
      /** The vendor's message; internal (logs), it may name our account details. */
      vendorMessage?: string;
      /** The input field an `invalid_input` error is about, when it is about one. */
      field?: string;
      /** What the caller can do about an `invalid_input` refusal (e.g. how to link an account first). */
      nextActions?: readonly string[];
    } = {},
  ) {
    super(message);
    this.name = "ProviderError";
  }

  get status(): number | undefined {
    return this.opts.status;
  }

  get retryable(): boolean {
    return this.opts.retryable ?? false;
  }

  get blame(): "input" | "provider" {
    return this.opts.blame ?? "provider";
  }

  get vendorCode(): string | undefined {
    return this.opts.vendorCode;
  }

  get field(): string | undefined {
    return this.opts.field;
  }
}

/** An adapter with the context it calls its vendor with on one route network. */
export interface ConfiguredProvider {
  adapter: ProviderAdapter;
  /** Call context for this network; add the execution's `idempotencyKey` per call. */
  ctx: ProviderContext;
}

/** An input field naming a resource the caller must own: its kind, and the provider whose routes can use it. */
export interface ResourceField {
  field: string;
  kind: string;
  providerKey: string;
}

/** An input field holding a sender mailbox (ProviderAdapter.senderFields). */
export interface SenderField {
  field: string;
  /** The owned resource kind whose id is an address this field may hold, e.g. `email.inbox`. */
  kind: string;
  /** The message goes out as it (`from`): an owned resource here also decides the route (the one holding it). */
  sendsAs: boolean;
}

/** One approval a capability issues and another requires (ProviderAdapter.approvals). */
export interface ApprovalRule {
  /** The capability whose answer issues it, e.g. `broadcast.message.quote`. */
  issuedBy: string;
  /** The capability that runs only with it, e.g. `broadcast.message.send`. */
  requiredBy: string;
  /** The input field carrying its id: set by the executor on the issuing call, sent by the caller on the requiring one. */
  field: string;
  /** The input field the executor sets on the issuing call to the approval's expiry (ISO 8601), for the answer to show. */
  expiresField: string;
  /** Prefix of its ids, e.g. `bq`. */
  idPrefix: string;
  /** How long it may be used after it is issued, in ms. */
  ttlMs: number;
  /** What it approves, from either call's input (the same text for the same post): a requiring call must match it. */
  subject(input: CapabilityInput): string;
}

/** The providers of this deployment. */
export interface ProviderRegistry {
  /** The adapter and context of a provider on a route network (the route's networkKey), or undefined when that pair is not configured. */
  get(providerKey: string, network: string): ConfiguredProvider | undefined;
  readonly providerKeys: readonly string[];
  /**
   * The fields of `capabilityKey`'s input that name owned resources, as every adapter declares them,
   * configured here or not: such an input can never slip through to a route that would ignore it.
   */
  resourceFieldsOf(capabilityKey: string): ResourceField[];
  /** The sender fields of `capabilityKey`'s input, as every adapter declares them (one entry per field). */
  senderFieldsOf(capabilityKey: string): SenderField[];
  /** The platform's own sender addresses (`user@host`, the configured `defaultFrom` of the email providers). */
  readonly platformSenders: readonly string[];
  /** The approval `capabilityKey` issues or requires, as the configured adapters declare it. */
  approvalOf(capabilityKey: string): ApprovalRule | undefined;
}
