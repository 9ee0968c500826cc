// Catalog: the domains (GET /domains), then a domain's capabilities (GET /domains/{d}/capabilities), searched
// by the words of their keys, labels and descriptions; a capability opens its playground.
import { useApi } from "../use-api";
import type { Capability, Domain } from "../types";
import { credits } from "../format";
import { go, hrefOf, type Place } from "../route";
import { ErrorNote, Loading } from "../widgets";

const matches = (words: string, ...texts: Array<string | undefined>) => {
  const hay = texts.join(" ").toLowerCase();
  return words
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
};

function Search({ place, label }: { place: Place; label: string }) {
  return (
    <form
      class="filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        go(place.parts, { q: String(new FormData(e.currentTarget).get("q") ?? "") || undefined });
      }}
    >
      <label>
        {label} <input type="search" name="q" value={place.query.get("q") ?? ""} />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

export function Catalog({ place }: { place: Place }) {
  const domainKey = place.parts[1];
  return domainKey ? <DomainCapabilities place={place} domainKey={domainKey} /> : <Domains place={place} />;
}

function Domains({ place }: { place: Place }) {
  const domains = useApi<Domain[]>("/domains");
  const q = place.query.get("q") ?? "";
  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title">Catalog</h1>
      <Search place={place} label="Search domains" />
      {domains.error && <ErrorNote error={domains.error} />}
      {domains.loading && <Loading />}
      <ul class="tiles">
        {(domains.answer?.body ?? [])
          .filter((d) => matches(q, d.domainKey, d.label, d.description))
          .map((d) => (
            <li key={d.domainKey}>
              <a href={hrefOf(["catalog", d.domainKey])}>{d.label ?? d.domainKey}</a>
              <p>{d.description}</p>
            </li>
          ))}
      </ul>
    </section>
  );
}

function DomainCapabilities({ place, domainKey }: { place: Place; domainKey: string }) {
  const caps = useApi<Capability[]>(`/domains/${encodeURIComponent(domainKey)}/capabilities`);
  const q = place.query.get("q") ?? "";
  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title">Catalog: {domainKey}</h1>
      <p>
        <a href={hrefOf(["catalog"])}>All domains</a>
      </p>
      <Search place={place} label="Search capabilities" />
      {caps.error && <ErrorNote error={caps.error} />}
      {caps.loading && <Loading />}
      <ul class="tiles">
        {(caps.answer?.body ?? [])
          .filter((c) => matches(q, c.capabilityKey, c.label, c.description))
          .map((c) => (
            <li key={c.capabilityKey}>
              <a href={hrefOf(["playground", c.domainKey, c.capabilityId])}>{c.capabilityKey}</a> <span class="tag">{c.status}</span>
              <p>{c.description}</p>
              <p class="muted">from {credits(c.startingPriceCredits)}</p>
            </li>
          ))}
      </ul>
    </section>
  );
}
