// Who a message goes out as: every sender field an input holds (email.send's `from` and `replyTo`, as
// the adapters declare them) must be the caller's to use, before anything is held or any vendor is
// called. A sender is the platform sender (under at most the caller's display name, which the adapter
// marks as relayed) or an inbox the caller owns; a `from` inbox also names the inbox the message is
// sent from (its resource field, `inboxId`), so only its provider's routes run it. Anything else is a
// 400 SENDER_NOT_OWNED naming the senders the caller may use: nobody sends as the platform's security
// team, or as another tenant's inbox.
import { invalidArgument, unavailable, type AppError } from "@agentic/platform/core";
import { dependencyOpts } from "./deadline";
import { asAppError, invalidInput } from "./errors";
import type { CallBudget, ExecuteCommand } from "./execution";
import { parseMailbox, sameAddress } from "./mailbox";
import type { ExecutorDeps } from "./ports";
import type { SenderField } from "./provider-port";

/** The input with each sender field checked; a `from` that is an owned inbox also sets the inbox's resource field (e.g. `inboxId`). */
export async function checkSenders(
  deps: Pick<ExecutorDeps, "ledger" | "providers" | "settings">,
  cmd: ExecuteCommand,
  capabilityKey: string,
  input: Record<string, unknown>,
  contractPath: string,
  budget: CallBudget,
): Promise<Record<string, unknown>> {
  const fields = deps.providers.senderFieldsOf(capabilityKey);
  let checked = input;
  for (const sender of fields) {
    const values = typeof input[sender.field] === "string" ? [input[sender.field] as string] : [];
    for (const value of values) {
      const mailbox = parseMailbox(value);
      if (!mailbox) throw invalidInput(sender.field, "must be one email address", contractPath);
      if (deps.providers.platformSenders.some((p) => sameAddress(p, mailbox.address))) continue;
      const owner = await ownerOf(deps, cmd, sender, mailbox.address, budget);
      if (!owner) throw senderNotOwned(sender.field, mailbox.address, deps.providers.platformSenders);
      if (!sender.sendsAs) continue;
      // Sent as an owned inbox: the message goes out from that inbox, on the routes of the provider holding it.
      const resourceField = deps.providers.resourceFieldsOf(capabilityKey).find((r) => r.kind === sender.kind)?.field;
      if (!resourceField) throw senderNotOwned(sender.field, mailbox.address, deps.providers.platformSenders);
      const named = checked[resourceField];
      if (named === undefined) checked = { ...checked, [resourceField]: owner };
      else if (typeof named !== "string" || !sameAddress(named, owner))
        throw invalidInput(sender.field, `must be the inbox ${resourceField} names (${String(named)}), or be left out`, contractPath);
    }
  }
  return checked;
}

/** The id of the caller's resource that is this address, or undefined when they own none. */
async function ownerOf(
  deps: Pick<ExecutorDeps, "ledger" | "settings">,
  cmd: ExecuteCommand,
  sender: SenderField,
  address: string,
  budget: CallBudget,
): Promise<string | undefined> {
  const lookup = deps.ledger.getOwnedResource?.bind(deps.ledger);
  if (!lookup)
    throw unavailable("UNAVAILABLE", `${sender.field} cannot be checked on this deployment. Nothing was charged.`, "Retry later.");
  // Inbox ids are their addresses, lower-cased as the vendor writes them.
  const resourceId = address.toLowerCase();
  try {
    await lookup({ userId: cmd.userId, kind: sender.kind, resourceId }, dependencyOpts(deps.settings, budget));
    return resourceId;
  } catch (err) {
    if (asAppError(err).kind === "not_found") return undefined;
    throw unavailable("UNAVAILABLE", `Whether ${sender.field} is yours could not be checked; nothing was charged.`, "Retry shortly.");
  }
}

/** 400: a sender the caller may not use, with the ones they may. */
function senderNotOwned(field: string, address: string, platformSenders: readonly string[]): AppError {
  const platform = platformSenders.map((p) => `Your Name <${p}>`);
  return invalidArgument(
    "SENDER_NOT_OWNED",
    `${field}: ${address} is not a sender this account may use. Nothing was charged.`,
    `Use an inbox this account owns (email.inbox.buy) or the platform sender with your display name (${
      platform.join(" or ") || "none is configured here"
    }: it is sent as "Your Name via Agentic API"); or leave ${field} out.`,
    {
      field,
      allowedSenders: [...platform, "an inbox this account owns (email.inbox.buy)"],
      nextActions: [
        ...platform.map((p) => `Set ${field} to "${p}" (your display name on the platform sender, sent as "Your Name via Agentic API")`),
        `Set ${field} to an inbox this account owns: buy one with POST /domains/email/capabilities/inbox-buy/execute`,
        `Leave ${field} out`,
      ],
    },
  );
}
