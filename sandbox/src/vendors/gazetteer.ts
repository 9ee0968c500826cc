// A small fixed gazetteer the geo stand-ins (Mapbox, Google Maps) answer from: addresses to geocode and
// places to search, so both vendors agree on the same facts. Matching is by words, case- and
// accent-insensitively: an address matches when most of the query's words are in it; a place when the
// query names its city and one of its kinds.

export interface Address {
  id: string;
  name: string;
  street: string;
  city: string;
  region: string;
  postcode: string;
  country: string;
  countryCode: string;
  lat: number;
  lng: number;
  kind: "address" | "poi" | "place";
}

export const ADDRESSES: readonly Address[] = [
  {
    id: "ChIJ2eUgeAK6j4ARbn5u_wAGqWA",
    name: "1600 Amphitheatre Parkway",
    street: "1600 Amphitheatre Parkway",
    city: "Mountain View",
    region: "California",
    postcode: "94043",
    country: "United States",
    countryCode: "US",
    lat: 37.4224857,
    lng: -122.0855846,
    kind: "address",
  },
  {
    id: "ChIJp4JiUCNP0xQR1JaSjpW_Hms",
    name: "Praça do Comércio",
    street: "Praça do Comércio",
    city: "Lisbon",
    region: "Lisbon",
    postcode: "1100-148",
    country: "Portugal",
    countryCode: "PT",
    lat: 38.7075197,
    lng: -9.1364483,
    kind: "poi",
  },
  {
    id: "ChIJRxzRQcUEdkgRGVaKyzmkgvg",
    name: "10 Downing Street",
    street: "10 Downing Street",
    city: "London",
    region: "England",
    postcode: "SW1A 2AA",
    country: "United Kingdom",
    countryCode: "GB",
    lat: 51.5033635,
    lng: -0.1276248,
    kind: "address",
  },
  {
    id: "ChIJLU7jZClu5kcR4PcOOO6p3I0",
    name: "Eiffel Tower",
    street: "Champ de Mars, 5 Avenue Anatole France",
    city: "Paris",
    region: "Île-de-France",
    postcode: "75007",
    country: "France",
    countryCode: "FR",
    lat: 48.8583701,
    lng: 2.2944813,
    kind: "poi",
  },
  {
    id: "ChIJO_PkYRozGQ0R0DaQ5L3rAAQ",
    name: "Lisbon",
    street: "",
    city: "Lisbon",
    region: "Lisbon",
    postcode: "",
    country: "Portugal",
    countryCode: "PT",
    lat: 38.7222524,
    lng: -9.1393366,
    kind: "place",
  },
];

export interface Place {
  id: string;
  name: string;
  address: string;
  city: string;
  kinds: readonly string[];
  types: readonly string[];
  lat: number;
  lng: number;
  rating: number;
  ratings: number;
  openNow: boolean;
  priceLevel: number;
}

const cafe = ["coffee", "cafe", "cafes", "café", "espresso"];
export const PLACES: readonly Place[] = [
  {
    id: "ChIJa1b2c3d4LisbonCafe01",
    name: "Fábrica Coffee Roasters",
    address: "R. das Flores 63, 1200-194 Lisboa, Portugal",
    city: "lisbon",
    kinds: cafe,
    types: ["cafe", "food", "point_of_interest", "establishment"],
    lat: 38.7103,
    lng: -9.1445,
    rating: 4.6,
    ratings: 2841,
    openNow: true,
    priceLevel: 2,
  },
  {
    id: "ChIJa1b2c3d4LisbonCafe02",
    name: "Hello, Kristof",
    address: "R. do Poço dos Negros 103, 1200-342 Lisboa, Portugal",
    city: "lisbon",
    kinds: cafe,
    types: ["cafe", "food", "point_of_interest", "establishment"],
    lat: 38.7098,
    lng: -9.1508,
    rating: 4.5,
    ratings: 1190,
    openNow: false,
    priceLevel: 2,
  },
  {
    id: "ChIJa1b2c3d4LisbonCafe03",
    name: "Copenhagen Coffee Lab",
    address: "R. Nova da Piedade 10, 1200-405 Lisboa, Portugal",
    city: "lisbon",
    kinds: cafe,
    types: ["cafe", "food", "point_of_interest", "establishment"],
    lat: 38.7139,
    lng: -9.1521,
    rating: 4.4,
    ratings: 2230,
    openNow: true,
    priceLevel: 1,
  },
  {
    id: "ChIJa1b2c3d4LisbonFado01",
    name: "Tasca do Chico",
    address: "R. do Diário de Notícias 39, 1200-141 Lisboa, Portugal",
    city: "lisbon",
    kinds: ["restaurant", "restaurants", "fado", "food"],
    types: ["restaurant", "bar", "food", "point_of_interest", "establishment"],
    lat: 38.7118,
    lng: -9.1449,
    rating: 4.5,
    ratings: 3105,
    openNow: true,
    priceLevel: 2,
  },
  {
    id: "ChIJa1b2c3d4ParisCafe001",
    name: "Café de Flore",
    address: "172 Bd Saint-Germain, 75006 Paris, France",
    city: "paris",
    kinds: cafe,
    types: ["cafe", "food", "point_of_interest", "establishment"],
    lat: 48.8541,
    lng: 2.3326,
    rating: 4.1,
    ratings: 12044,
    openNow: true,
    priceLevel: 3,
  },
];

/** Lower-case words without accents or punctuation. */
export function words(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

const CITY_ALIASES: Readonly<Record<string, string>> = { lisboa: "lisbon" };

/** Addresses most of whose words the query names, best first; `country` (ISO alpha-2) narrows them. */
export function geocode(query: string, country?: string): Address[] {
  const asked = words(query).map((w) => CITY_ALIASES[w] ?? w);
  if (asked.length === 0) return [];
  return ADDRESSES.filter((a) => !country || a.countryCode.toLowerCase() === country.toLowerCase())
    .map((a) => {
      const known = new Set(words(`${a.name} ${a.street} ${a.city} ${a.region} ${a.postcode} ${a.country} ${a.countryCode}`));
      return { a, score: asked.filter((w) => known.has(w)).length / asked.length };
    })
    .filter((m) => m.score >= 0.6)
    .sort((x, y) => y.score - x.score)
    .map((m) => m.a);
}

/** Places whose city and one of whose kinds the query names. */
export function searchPlaces(query: string, openNow: boolean): Place[] {
  const asked = new Set(words(query).map((w) => CITY_ALIASES[w] ?? w));
  return PLACES.filter((p) => asked.has(p.city) && p.kinds.some((k) => asked.has(words(k)[0] ?? k)) && (!openNow || p.openNow));
}
