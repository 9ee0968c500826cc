// @agentic/intent: a task in words → the catalog's capabilities that do it (pure, in memory).
export { INTENT_ROUTABLE_STATUSES } from "./documents";
export { IntentIndex, type IntentAnswer, type IntentMatch, type IntentQuery } from "./intent-index";
export {
  intentDocumentOf,
  sharedFieldsOf,
  type IntentCapability,
  type IntentDocument,
  type IntentField,
  type IntentSource,
} from "./documents";
export { extractConstraints, ProviderNames, CREDITS_PER_USD, type Goal, type TaskConstraints } from "./constraints";
export { INTENT_SCORING, scoreOf, type IntentScoring } from "./score";
export { termsOf, tokenize } from "./text";
