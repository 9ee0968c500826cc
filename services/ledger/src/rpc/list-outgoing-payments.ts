// ListOutgoingPayments (admin only): the payments booked in a range of UTC days, oldest first.
import type { UnaryHandler } from "@agentic/platform";
import type { ListOutgoingPaymentsRequest, ListOutgoingPaymentsResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toOutgoingPaymentMessage } from "./convert";

export function listOutgoingPayments(ledger: Ledger): UnaryHandler<ListOutgoingPaymentsRequest, ListOutgoingPaymentsResponse> {
  return async (req) => ({
    payments: (await ledger.listOutgoingPayments(req.fromDate, req.toDate)).map(toOutgoingPaymentMessage),
  });
}
