// Duffel (travel.flights.search): POST /air/offer_requests?return_offers=true&supplier_timeout=…
// (`Authorization: Bearer` and `Duffel-Version: v2` on direct routes) with {data: {slices, passengers,
// cabin_class}} → 201 {data: {id, offers[]}}. A return date adds the way back as a second slice. Offers
// are normalized (amounts stay decimal strings, as Duffel sends them), cheapest first, at most 20.
// Errors are {meta, errors: [{type, code, message}]}.
import type { RailResponse } from "../domain/rail-port";
import { InputReader } from "./input";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "duffel";

const MAX_OFFERS = 20;
/** How long Duffel may wait for airlines, below our call deadline so it answers with what it has. */
const SUPPLIER_TIMEOUT_MS = 10_000;

type Json = Record<string, unknown>;

const code = (value: unknown) => stringField(value, "iata_code") ?? null;

function offer(res: RailResponse, o: Json) {
  const total = stringField(o, "total_amount");
  const currency = stringField(o, "total_currency");
  if (!total || !currency || !Array.isArray(o.slices)) throw invalidResponse(KEY, res, "with an offer without total_amount or slices");
  return {
    id: stringField(o, "id") ?? null,
    totalAmount: total,
    currency,
    baseAmount: stringField(o, "base_amount") ?? null,
    taxAmount: stringField(o, "tax_amount") ?? null,
    airline: { code: code(o.owner), name: stringField(o.owner, "name") ?? null },
    expiresAt: stringField(o, "expires_at") ?? null,
    slices: o.slices.filter(isRecord).map((s) => {
      const segments = Array.isArray(s.segments) ? s.segments.filter(isRecord) : [];
      return {
        origin: code(s.origin),
        destination: code(s.destination),
        duration: stringField(s, "duration") ?? null,
        stops: Math.max(segments.length - 1, 0),
        segments: segments.map((g) => ({
          carrier: code(g.marketing_carrier),
          flightNumber: stringField(g, "marketing_carrier_flight_number") ?? null,
          origin: code(g.origin),
          destination: code(g.destination),
          departureAt: stringField(g, "departing_at") ?? null,
          arrivalAt: stringField(g, "arriving_at") ?? null,
        })),
      };
    }),
  };
}

export const duffelProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.duffel.com" },
  capabilities: {
    "travel.flights.search": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const origin = read.iataCode("origin");
        const destination = read.iataCode("destination");
        const departure = read.string("departureDate", true);
        const back = read.string("returnDate");
        const adults = read.number("adults", { integer: true, min: 1, max: 9 }) ?? 1;
        const cabin = read.string("cabinClass") ?? "economy";
        const slices = [
          { origin, destination, departure_date: departure },
          ...(back ? [{ origin: destination, destination: origin, departure_date: back }] : []),
        ];
        return {
          method: "POST",
          url: `${ctx.baseUrl}/air/offer_requests?return_offers=true&supplier_timeout=${SUPPLIER_TIMEOUT_MS}`,
          headers: { "duffel-version": "v2", ...ourKeyAs(ctx, "authorization", "Bearer ") },
          body: { data: { slices, passengers: Array.from({ length: adults }, () => ({ type: "adult" })), cabin_class: cabin } },
        };
      },
      parse(res, _input) {
        if (res.status !== 200 && res.status !== 201) {
          const first = isRecord(res.body) && Array.isArray(res.body.errors) ? res.body.errors.find(isRecord) : undefined;
          throw vendorError(KEY, res, { code: stringField(first, "code"), message: stringField(first, "message") });
        }
        const data = isRecord(res.body) && isRecord(res.body.data) ? res.body.data : undefined;
        const offers = data && Array.isArray(data.offers) ? data.offers.filter(isRecord) : undefined;
        if (!data || !offers) throw invalidResponse(KEY, res, "without data.offers");
        const normalized = offers.map((o) => offer(res, o));
        normalized.sort((a, b) => Number(a.totalAmount) - Number(b.totalAmount));
        const id = stringField(data, "id");
        return {
          status: "completed",
          ...(id ? { providerMessageId: id } : {}),
          data: { offerRequestId: id ?? null, offers: normalized.slice(0, MAX_OFFERS) },
        };
      },
    },
  },
});
