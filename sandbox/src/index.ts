// @agentic/sandbox: local stand-ins for third-party providers and payment sellers, for tests and dev.
export { createSandbox, SANDBOX_API_KEYS, SANDBOX_PRICES_ATOMIC, type Sandbox, type SandboxOptions } from "./app";
export { startSandbox, providerBaseUrls, sandboxExecutorEnv, type RunningSandbox, type SandboxNetwork } from "./start";
export { AYRSHARE_PRIVATE_KEY, AYRSHARE_PROFILE_DOMAIN } from "./vendors/ayrshare";
export type { SandboxControl } from "./control/sandbox-control";
export type { CallRecord } from "./control/call-log";
export { FAULT_MODES, type FaultMode, type FaultSpec } from "./control/faults";
export type { X402Knobs } from "./payments/x402-paywall";
export type { MppKnobs } from "./payments/mpp-paywall";
export { MPP_RECIPIENT, SANDBOX_CHAIN_ID, SANDBOX_NETWORK, SANDBOX_NETWORK_V1, SANDBOX_USDC, X402_PAY_TO } from "./payments/assets";
