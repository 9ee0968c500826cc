// The compiled answer of a domain or capability RPC, or the public not-found error for its keys.
import type { EncodedAnswers, ServedCatalog } from "../compiled";
import { capabilityNotFound, domainNotFound } from "../domain";

type DomainAnswer = (domainKey: string) => Buffer | undefined;
type CapabilityAnswer = (domainKey: string, capabilityId: string) => Buffer | undefined;

export function domainAnswer(catalog: ServedCatalog, pick: (a: EncodedAnswers) => DomainAnswer, domainKey: string): Buffer {
  const answer = pick(catalog.answers)(domainKey);
  if (!answer) throw domainNotFound(domainKey);
  return answer;
}

export function capabilityAnswer(
  catalog: ServedCatalog,
  pick: (a: EncodedAnswers) => CapabilityAnswer,
  req: { domainKey: string; capabilityId: string },
): Buffer {
  const answer = pick(catalog.answers)(req.domainKey, req.capabilityId);
  if (answer) return answer;
  throw catalog.hasDomain(req.domainKey) ? capabilityNotFound(req.domainKey, req.capabilityId) : domainNotFound(req.domainKey);
}
