// Documents of the MongoDB ledger's collections and the records they read as. An execution's `rev` is
// its compare-and-set token: toExecution remembers the rev each record was read with (revOf), so a
// decision's `previous` record is written back only while it is still what was read.
import { randomUUID } from "node:crypto";
import type { QuoteRecord } from "../../domain/quote";
import { policyAgentKey, type SpendBucket, type SpendPolicy } from "../../domain/spend-policy";
import type { TopUpRecord } from "../../domain/top-up";
import type {
  ApiKeyRecord,
  ExecutionRecord,
  Hold,
  JournalEntry,
  OutgoingPayment,
  OwnedResource,
  PlatformLoss,
  UnchargedWork,
  UsageItem,
  Wallet,
} from "../../domain/types";

export interface WalletDoc {
  _id: string; // user id
  balanceCredits: number;
  heldCredits: number;
  /** Number of journal entries of this user; each movement takes the next value as its `seq`. */
  journalSeq: number;
  updatedAt: Date;
}

export interface HoldDoc extends Omit<Hold, "holdId"> {
  _id: string; // hold id
}

export interface JournalDoc extends Omit<JournalEntry, "entryId"> {
  _id: string; // entry id
  /** Per-user order of the append-only journal (from WalletDoc.journalSeq). */
  seq: number;
  reason?: string;
}

export interface UsageDoc extends Omit<UsageItem, "holdId" | "kind"> {
  _id: string; // a charge's hold id (one usage item per hold), a credit movement's journal entry id
  /** Absent on items written before credit movements were recorded: those are charges. */
  kind?: UsageItem["kind"];
}

export interface ApiKeyDoc extends Omit<ApiKeyRecord, "keyId"> {
  _id: string; // key id
}

export interface ExecutionDoc extends Omit<ExecutionRecord, "executionId" | "result"> {
  _id: string; // execution id
  /** Changes on every write; compare-and-set token: every write is conditioned on the rev it read. */
  rev: string;
  /** The body as JSON text, so it is replayed exactly as it was given (any keys, any order). */
  result?: { httpStatus: number; bodyJson?: string };
}

export interface ResourceDoc extends OwnedResource {
  _id: string; // resourceDocId(kind, resourceId): one owner per resource
}

export interface PaymentDoc extends Omit<OutgoingPayment, "paymentId"> {
  _id: string; // payment id, <hold id>/<position>
}

/** A loss with its payment's fields, so reading losses needs no join. */
export interface LossDoc extends Omit<PlatformLoss, "paymentId"> {
  _id: string; // payment id: one loss per payment
}

export interface TopUpDoc extends Omit<TopUpRecord, "topUpId"> {
  _id: string; // top-up id: one per payment (network, asset, payer, nonce)
}

export interface SpendPolicyDoc extends SpendPolicy {
  _id: string; // JSON [key id, agent name or ""]: one policy per (key, agent); [key id, "", "other agents"]: the default agent policy
}

export interface SpendBucketDoc extends SpendBucket {
  _id: string; // JSON [key id, day, agent name or "", capability key or ""]
}

export interface QuoteDoc extends Omit<QuoteRecord, "quoteId"> {
  _id: string; // quote id
}

export const policyDocId = (keyId: string, agentName: string | undefined, otherAgents = false) =>
  JSON.stringify(otherAgents ? [keyId, "", "other agents"] : [keyId, policyAgentKey(agentName)]);

export const resourceDocId = (kind: string, resourceId: string) => JSON.stringify([kind, resourceId]);

/** The rev each execution record handed out was read with. */
const revs = new WeakMap<ExecutionRecord, string>();

/** The rev `record` was read with (undefined for a record not read from the store). */
export const revOf = (record: ExecutionRecord): string | undefined => revs.get(record);

export function toWallet(doc: WalletDoc): Wallet {
  return { userId: doc._id, balanceCredits: doc.balanceCredits, heldCredits: doc.heldCredits };
}

export function toHold({ _id, ...doc }: HoldDoc): Hold {
  return { holdId: _id, ...doc };
}

export function toSpendPolicy({ _id, ...doc }: SpendPolicyDoc): SpendPolicy {
  return { ...doc, capabilityCaps: doc.capabilityCaps ?? [] };
}

export function toQuote({ _id, ...doc }: QuoteDoc): QuoteRecord {
  return { quoteId: _id, ...doc };
}

export function toEntry(doc: JournalDoc): JournalEntry {
  return {
    entryId: doc._id,
    userId: doc.userId,
    kind: doc.kind,
    amountCredits: doc.amountCredits,
    heldDeltaCredits: doc.heldDeltaCredits,
    referenceId: doc.referenceId,
    createdAt: doc.createdAt,
    ...(doc.reason ? { reason: doc.reason } : {}),
    ...(doc.operator !== undefined ? { operator: doc.operator } : {}),
    ...(doc.operatorName !== undefined ? { operatorName: doc.operatorName } : {}),
  };
}

export function toUsage({ _id, kind, ...item }: UsageDoc): UsageItem {
  return kind === undefined || kind === "charge" ? { ...item, kind: "charge", holdId: _id } : { ...item, kind };
}

export function toResource({ _id, ...doc }: ResourceDoc): OwnedResource {
  return doc;
}

export function toPayment({ _id, ...doc }: PaymentDoc): OutgoingPayment {
  return { paymentId: _id, ...doc };
}

export function toApiKey({ _id, ...doc }: ApiKeyDoc): ApiKeyRecord {
  return { keyId: _id, ...doc };
}

export function toExecution({ _id, rev, result, ...doc }: ExecutionDoc): ExecutionRecord {
  const record: ExecutionRecord = {
    executionId: _id,
    ...doc,
    ...(result
      ? { result: { httpStatus: result.httpStatus, ...(result.bodyJson === undefined ? {} : { body: JSON.parse(result.bodyJson) }) } }
      : {}),
  };
  revs.set(record, rev);
  return record;
}

/** A new document for `record`, with a new rev. */
export function toExecutionDoc({ executionId, result, ...record }: ExecutionRecord): ExecutionDoc {
  return {
    _id: executionId,
    ...record,
    ...(result
      ? { result: { httpStatus: result.httpStatus, ...(result.body === undefined ? {} : { bodyJson: JSON.stringify(result.body) }) } }
      : {}),
    rev: randomUUID(),
  };
}

export function toTopUp(doc: TopUpDoc): TopUpRecord {
  const { _id, ...rest } = doc;
  return { topUpId: _id, ...rest };
}

export interface UnchargedWorkDoc extends Omit<UnchargedWork, "holdId"> {
  _id: string; // hold id: once per hold
}

export function toUnchargedWork({ _id, ...doc }: UnchargedWorkDoc): UnchargedWork {
  return { holdId: _id, ...doc };
}
