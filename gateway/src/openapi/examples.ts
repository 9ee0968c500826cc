// Example payloads of the OpenAPI document: one coherent story (the email domain, email.send
// over Resend and SendGrid). Every example is checked against its schema by openapi.test.ts.

const OPTIMIZATION_GOALS = ["cost", "reliability", "speed", "quality"];

/** W3C trace id used in examples. */
export const EXAMPLE_TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

/** Execution id used in examples (the Execution-Id of the example execution). */
export const EXAMPLE_EXECUTION_ID = "exe_4fQxL2vR8mT1nB7cK9pZ3d";

/** Example payloads for `basePath` (server-relative paths inside them start with it). */
export function buildExamples(basePath: string) {
  const domainPath = `${basePath}/domains/email`;
  const capabilityPath = `${domainPath}/capabilities/send`;
  const domain = {
    domainKey: "email",
    label: "Email",
    description: "Programmatic outbound email and inbox lifecycle management for agents.",
    status: "live",
    capabilitiesPath: `${domainPath}/capabilities`,
    routesPath: `${domainPath}/routes`,
    routeEndpoint: null,
    supportsIntentRouting: false,
    liveCapabilityCount: 1,
    totalCapabilityCount: 2,
    startingPriceCredits: 10,
  };
  const capability = {
    capabilityKey: "email.send",
    capabilityId: "send",
    domainKey: "email",
    label: "Email Send",
    description: "Send a transactional email to one or more recipients.",
    status: "live",
    supportedProviders: ["resend", "sendgrid"],
    enabledProviders: ["resend", "sendgrid"],
    supportedFeatures: ["html", "text", "tracking"],
    availableRouteModes: ["managed"],
    startingPriceCredits: 10,
    recommendEndpoint: `${capabilityPath}/recommend`,
    executeEndpoint: `${capabilityPath}/execute`,
    routesEndpoint: `${capabilityPath}/routes`,
    contractEndpoint: `${capabilityPath}/contract`,
    contractStatus: "available",
  };
  const routes = [
    {
      routeKey: "email.send.resend",
      domainKey: "email",
      capabilityKey: "email.send",
      capabilityId: "send",
      providerKey: "resend",
      providerLabel: "Resend",
      networkKey: "direct",
      routeMode: "managed",
      managedByAgenticApi: true,
      settlementRail: "api_key",
      supportedFeatures: ["html", "text", "tracking"],
      summary: "Transactional email through Resend, billed directly with the service's key.",
      startingCostCredits: 10,
      status: "live",
      billing: "per_call",
      health: {
        successRate: 0.995,
        p50LatencyMs: 410,
        p95LatencyMs: 930,
        breakerState: "closed",
        lastFailureAt: "2026-11-27T09:12:44.000Z",
        observations: 200,
      },
    },
    {
      routeKey: "email.send.sendgrid",
      domainKey: "email",
      capabilityKey: "email.send",
      capabilityId: "send",
      providerKey: "sendgrid",
      providerLabel: "SendGrid",
      networkKey: "direct",
      routeMode: "managed",
      managedByAgenticApi: true,
      settlementRail: "api_key",
      supportedFeatures: ["html", "text", "tracking"],
      summary: "Transactional email through SendGrid, billed directly with the service's key.",
      startingCostCredits: 12,
      status: "live",
      billing: "per_call",
    },
  ];
  const recommendRequest = {
    agentName: "alpha_agent",
    optimizationPreferences: ["cost", "quality"],
    tracking: true,
  };
  const executeRequest = {
    to: "ada@example.com",
    subject: "Your report is ready",
    html: "<p>Hi Ada, your weekly report is attached.</p>",
  };
  const contract = {
    domainKey: "email",
    capabilityKey: "email.send",
    capabilityId: "send",
    contractStatus: "available",
    recommend: {
      status: "available",
      dtoName: "RecommendEmailSendDto",
      requiredFields: [],
      optionalFields: ["agentName", "optimizationPreferences", "tracking"],
      conditionallyRequiredFields: [],
      fields: [
        { name: "agentName", type: "string", required: false, maxLength: 100 },
        {
          name: "optimizationPreferences",
          type: "array",
          required: false,
          itemsType: "string",
          enumValues: OPTIMIZATION_GOALS,
        },
        { name: "tracking", type: "boolean", required: false, notes: ["Prefer routes that support open/click tracking."] },
      ],
      requestExample: recommendRequest,
      notes: ["Recommend is free and never performs the send."],
    },
    execute: {
      status: "available",
      dtoName: "ExecuteEmailSendDto",
      requiredFields: ["to", "subject"],
      optionalFields: ["html", "text", "provider", "allowFallback"],
      conditionallyRequiredFields: ["html", "text"],
      oneOfRequired: [["html", "text"]],
      fields: [
        { name: "to", type: "string", required: true, format: "email" },
        { name: "subject", type: "string", required: true, maxLength: 998 },
        { name: "html", type: "string", required: false, conditionallyRequired: true },
        { name: "text", type: "string", required: false, conditionallyRequired: true },
        { name: "provider", type: "string", required: false, notes: ["Pins a provider (providerKey)."] },
        { name: "allowFallback", type: "boolean", required: false, notes: ["Permits falling back to another route."] },
      ],
      requestExample: executeRequest,
      responseExample: {
        success: true,
        status: "sent",
        provider: "resend",
        routeKey: "email.send.resend",
        creditsCharged: 10,
        providerMessageId: "4ef1c8f2-3b5e-4c1d-9a57-2f7e0c9b8d11",
      },
      notes: ["One of html or text is required."],
    },
    notes: ["Contracts are the canonical place for exact request fields."],
  };
  const candidates = [
    {
      provider: "resend",
      routeKey: "email.send.resend",
      routeMode: "managed",
      canExecuteNow: true,
      score: 0.94,
      priceCredits: 10,
      trackingSupported: true,
      supportedFeatures: ["html", "text", "tracking"],
      settlementRail: "api_key",
      blockingRequirements: [],
      nextActions: [],
      reasons: ["Lowest price among executable routes (10 credits).", "Supports tracking."],
    },
    {
      provider: "sendgrid",
      routeKey: "email.send.sendgrid",
      routeMode: "managed",
      canExecuteNow: true,
      score: 0.86,
      priceCredits: 12,
      trackingSupported: true,
      supportedFeatures: ["html", "text", "tracking"],
      settlementRail: "api_key",
      blockingRequirements: [],
      nextActions: [],
      reasons: ["Executable now; 2 credits more than the cheapest route."],
    },
  ];
  const recommendation = {
    success: true,
    productKey: "email.send",
    preferenceSource: "request",
    optimizationPreferences: ["cost", "quality"],
    recommendedProvider: "resend",
    recommendedRouteKey: "email.send.resend",
    recommendedRouteMode: "managed",
    canExecuteNow: true,
    bestExecutableProvider: "resend",
    bestExecutableRouteKey: "email.send.resend",
    bestExecutableRouteMode: "managed",
    blockingRequirements: [],
    nextActions: [`POST ${capabilityPath}/execute`],
    candidates,
    workflowRecommendations: [
      {
        workflowType: "direct_execute",
        summary: "Send directly on the recommended managed route.",
        managedAfterAcquisition: false,
        executeRouteKey: "email.send.resend",
        executeProvider: "resend",
        executePriceCredits: 10,
        estimatedFirstExecutionTotalCredits: 10,
        recurringExecutionCredits: 10,
        blockingRequirements: [],
        nextActions: [`POST ${capabilityPath}/execute`],
        reasons: ["The route is managed; nothing has to be acquired first."],
      },
    ],
    recommendationId: "rec_2b7c9d1e-5f3a-4c8b-9e6d-0a1b2c3d4e5f",
    recommendationExpiresAt: "2026-11-27T10:10:00.000Z",
  };
  const routeDecision = {
    servedRouteKey: "email.send.resend",
    attempts: [{ routeKey: "email.send.resend", provider: "resend", outcome: "ok", latencyMs: 412 }],
    notTried: [
      { routeKey: "email.send.sendgrid", provider: "sendgrid", reason: "not_reached", detail: "email.send.resend served first" },
      {
        routeKey: "email.send.postmark",
        provider: "postmark",
        reason: "over_max_price",
        detail: "costs 14 credits, above maxPriceCredits 12",
      },
    ],
  };
  const quote = {
    success: true,
    quoteId: "quo_8Jd3Kq7PzW2mX5vN9cR1tY",
    routeKey: "email.send.resend",
    provider: "resend",
    priceCredits: 10,
    expiresAt: "2025-06-01T12:05:00.000Z",
    balanceAfterCredits: 4980,
    blockingRequirements: [],
    nextActions: [],
    decision: { ...routeDecision, attempts: [] },
  };
  const execution = {
    success: true,
    status: "sent",
    provider: "resend",
    routeKey: "email.send.resend",
    creditsCharged: 10,
    providerMessageId: "4ef1c8f2-3b5e-4c1d-9a57-2f7e0c9b8d11",
    data: { messageId: "4ef1c8f2-3b5e-4c1d-9a57-2f7e0c9b8d11" },
    decision: routeDecision,
  };
  const executionAttempt = {
    holdId: "att_7Hs2Kd9QmX4pLr8Vt1Nc5b",
    routeKey: "email.send.resend",
    heldCredits: 10,
    state: "captured",
    chargedCredits: 10,
    createdAt: "2025-06-01T12:00:00.031Z",
    settledAt: "2025-06-01T12:00:00.452Z",
  };
  const executionStatus = {
    success: true,
    execution: {
      executionId: EXAMPLE_EXECUTION_ID,
      state: "succeeded",
      indeterminate: false,
      capabilityKey: "email.send",
      idempotencyKey: "order-1234",
      createdAt: "2025-06-01T12:00:00.012Z",
      completedAt: "2025-06-01T12:00:00.452Z",
      creditsCharged: 10,
      attempts: [executionAttempt],
      result: { httpStatus: 200, body: execution },
    },
  };
  const usageItem = {
    kind: "charge",
    id: "usg_01J9Z6Q4W8XKJ3M2T5N7P0R1S2",
    createdAt: "2025-06-01T12:00:00.000Z",
    productKey: "email.send",
    capabilityKey: "email.send",
    routeKey: "email.send.resend",
    provider: "resend",
    networkKey: "direct",
    status: "succeeded",
    creditsCharged: 10,
    durationMs: 412,
    agentName: "alpha_agent",
    traceId: EXAMPLE_TRACE_ID,
  };
  return {
    domain,
    capability,
    routes,
    contract,
    recommendRequest,
    executeRequest,
    recommendation,
    candidate: candidates[0],
    workflow: recommendation.workflowRecommendations[0],
    execution,
    routeDecision,
    quote,
    executionStatus,
    executionView: executionStatus.execution,
    executionAttempt,
    executionResult: executionStatus.execution.result,
    wallet: {
      success: true,
      userId: "user_7d2f1c",
      balanceCredits: 4990,
      reservedCredits: 10,
      spendPolicies: [
        {
          keyId: "key_3fQx",
          reset: "daily",
          budgetCredits: 500,
          spentCredits: 130,
          heldCredits: 10,
          remainingCredits: 370,
          periodStart: "2026-11-27T00:00:00.000Z",
          resetsAt: "2026-11-28T00:00:00.000Z",
          capabilityCaps: [{ capabilityKey: "email.send", maxCount: 20, spentCredits: 120, count: 12 }],
        },
      ],
    },
    usage: {
      success: true,
      userId: "user_7d2f1c",
      items: [
        usageItem,
        {
          id: "jrn_5Hx2kQ9vN3mP8rT1wY6zA4",
          kind: "grant",
          createdAt: "2025-05-30T09:00:00.000Z",
          creditsCharged: 0,
          amountCredits: 5000,
          reference: "TICKET-4411",
          reason: "Welcome credit",
        },
      ],
      nextCursor: "WzE3NDg3NzU2MDAwMDAsImpybl81SHgya1E5dk4zbVA4clQxd1k2ekE0Il0",
    },
    usageItem,
    devInitRequest: { userId: "dev-user", balanceCredits: 5000 },
    devInitResponse: {
      success: true,
      userId: "dev-user",
      balanceCredits: 5000,
      credited: 5000,
      providers: ["resend", "sendgrid"],
      enabledProviders: ["resend", "sendgrid"],
      products: [{ productKey: "email.send", startingPrice: 10 }],
    },
  };
}

/** The example set used by the document. */
export type Examples = ReturnType<typeof buildExamples>;
