// Idempotency-Key semantics on top of the ledger's execution records (Stripe's, made crash-proof):
// the first result of a request that reached execution is stored for 24 h and replayed for the same
// request; the same key with another request conflicts; a concurrent duplicate waits (bounded) for
// the first one's result. A key's claim may be taken over only while nothing was held for it: once
// an attempt placed a hold (the ledger records that in the same step as the hold), a provider may
// have been reached and the key never runs again; a retry then gets the outcome, or, while it is
// unknown, EXECUTION_INDETERMINATE. Results are stored as the HTTP-level record the ledger keeps
// (OutcomeRecords).
import { createHash } from "node:crypto";
import type { Logger } from "@agentic/platform";
import { callDeadlineMs, type AppError } from "@agentic/platform/core";
import { asAppError, executionIndeterminate, idempotencyConflict, idempotencyInProgress } from "./errors";
import type { StoredOutcome } from "./execution";
import type { ClaimIdempotencyKeyRequest, ClaimIdempotencyKeyResponse } from "@agentic/proto/ledger/v1";
import type { LedgerPort, OutcomeRecords } from "./ports";

export interface IdempotencySettings {
  /** How long a claim blocks duplicates before it may be taken over, in ms. */
  leaseMs: number;
  /** How long a concurrent duplicate waits for the first result, in ms. */
  waitMs: number;
  /** Deadline of each ledger call, in ms. */
  deadlineMs: number;
}

export interface IdempotencyKeyRef {
  userId: string;
  key: string;
  requestHash: string;
  /** The execution this request creates if the key is free. */
  executionId: string;
  capabilityKey: string;
}

/** The ledger's claim of the key, leased for `leaseMs`: what ClaimIdempotencyKey sends, and the first hold's claim in the same call. */
export function claimRequest(ref: IdempotencyKeyRef, leaseMs: number): ClaimIdempotencyKeyRequest {
  return {
    userId: ref.userId,
    idempotencyKey: ref.key,
    requestHash: ref.requestHash,
    leaseMs,
    executionId: ref.executionId,
    capabilityKey: ref.capabilityKey,
  };
}

/** What a replayed error's hint adds to the original advice. */
export const REPLAY_NOTE =
  "This answer is the stored result of this Idempotency-Key and is replayed for it: to try again, send a new Idempotency-Key.";

/**
 * A stored error as replayed: its hint ("Retry shortly", "...then retry") would only replay it again
 * under the same key, so it gains REPLAY_NOTE, and `details.replayed` is true. Applied once.
 */
export function replayedError(err: AppError): AppError {
  if (err.details?.replayed === true) return err;
  const advice = err.hint.trim();
  const hint = advice === "" ? REPLAY_NOTE : `${advice}${/[.!?]$/.test(advice) ? "" : "."} ${REPLAY_NOTE}`;
  return err.withDetails({ replayed: true }, hint);
}

/**
 * The key a vendor deduplicates on for this execution: derived from (user, Idempotency-Key) so a
 * retried execution presents the same one, and so two users' equal keys never collide at a vendor
 * all of them reach through our account.
 */
export function vendorIdempotencyKey(userId: string, key: string): string {
  return `idem_${createHash("sha256").update(`${userId}\u0000${key}`).digest("base64url").slice(0, 32)}`;
}

/**
 * Thrown by a run whose first hold claimed its Idempotency-Key (Execution.claim) when the key was not
 * free: nothing was held, no provider was called; `claim` says what the key answered.
 */
export class KeyClaimAnswered extends Error {
  constructor(readonly claim: ClaimIdempotencyKeyResponse) {
    super(`the Idempotency-Key was ${claim.state}`);
    this.name = "KeyClaimAnswered";
  }
}

/** What a claim of the key means for this request: run it, replay the stored outcome, or wait (another request runs it). */
type ClaimMeaning = { kind: "run" } | { kind: "replay"; outcome: StoredOutcome } | { kind: "wait"; claim: ClaimIdempotencyKeyResponse };

export class IdempotencyGuard {
  constructor(
    private readonly ledger: LedgerPort,
    private readonly records: OutcomeRecords,
    private readonly settings: IdempotencySettings,
    private readonly logger: Logger,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /**
   * Claims the key. Resolves `run` when this request must execute (as `ref.executionId`), or the
   * stored outcome to replay. Throws IDEMPOTENCY_CONFLICT (other request), IDEMPOTENCY_IN_PROGRESS
   * when the first request is still running after the wait (bounded by `remainingMs`), or
   * EXECUTION_INDETERMINATE when it started an attempt and its lease ran out without an outcome.
   */
  async begin(ref: IdempotencyKeyRef, remainingMs: () => number): Promise<{ kind: "run" } | { kind: "replay"; outcome: StoredOutcome }> {
    const waitUntil = Date.now() + Math.min(this.settings.waitMs, Math.max(0, remainingMs() - this.settings.deadlineMs));
    for (let pause = 50; ; pause = Math.min(pause * 2, 500)) {
      const claim = await this.ledger.claimIdempotencyKey(claimRequest(ref, this.settings.leaseMs), {
        deadlineMs: this.deadline(remainingMs),
      });
      const meaning = this.meaningOf(ref, claim);
      if (meaning.kind !== "wait") return meaning;
      // in_progress: the first request is running; poll until it stores its result.
      if (Date.now() + pause > waitUntil) throw idempotencyInProgress(ref.key, claim.executionId, claim.leaseExpiresAt);
      await this.sleep(pause);
    }
  }

  /**
   * What a claim answered means, without waiting: run, replay, or wait (in progress). Throws
   * IDEMPOTENCY_CONFLICT, or EXECUTION_INDETERMINATE for a started execution past its lease.
   */
  meaningOf(ref: Pick<IdempotencyKeyRef, "key">, claim: ClaimIdempotencyKeyResponse): ClaimMeaning {
    switch (claim.state) {
      case "claimed":
        return { kind: "run" };
      case "completed":
        return { kind: "replay", outcome: this.records.decode(claim.result ?? { httpStatus: 500 }) };
      case "conflict":
        throw idempotencyConflict(ref.key);
      default: {
        const leaseOver = claim.leaseExpiresAt !== undefined && claim.leaseExpiresAt.getTime() <= Date.now();
        if (claim.started && leaseOver) throw executionIndeterminate(ref.key, claim.executionId);
        return { kind: "wait", claim };
      }
    }
  }

  /**
   * Stores the outcome; a few retries, then gives up with an error log. Losing this call loses no
   * money and runs nothing twice: an execution that held credits carries its outcome on its final
   * settlement too, and one that held nothing may safely run again once its lease ends.
   */
  async finish(ref: IdempotencyKeyRef, outcome: StoredOutcome): Promise<void> {
    const result = this.records.encode(outcome);
    for (let attempt = 1; ; attempt++) {
      try {
        // By execution id, not by key: a request whose claim was taken over can never overwrite the new owner's answer.
        await this.ledger.completeExecution(
          { userId: ref.userId, executionId: ref.executionId, result },
          { deadlineMs: this.settings.deadlineMs },
        );
        return;
      } catch (err) {
        const remote = asAppError(err);
        if (remote.code === "EXECUTION_NOT_FOUND") return; // taken over: the answer is the new owner's to store
        if (attempt >= 3) {
          this.logger.error(
            { err: remote, userId: ref.userId, executionId: ref.executionId },
            "could not store the idempotent result; its settlement or reconciliation will",
          );
          return;
        }
        await this.sleep(100 * attempt);
      }
    }
  }

  private deadline(remainingMs: () => number): number {
    return callDeadlineMs(this.settings.deadlineMs, remainingMs());
  }
}
