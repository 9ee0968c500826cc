// Words of place names, from what the runtime itself knows (no list to keep): the cities of the IANA
// time zones (Kolkata, Sao Paulo, Vancouver) and the names of the world's countries and regions
// (Mexico, Brazil). A capitalized word a task names that is one of these is where the task happens;
// one that is not may be a product the task needs (Zendesk, DocuSign), see text.ts.

/** "São" and "Sao" are the same word. */
export function foldedWord(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

function placeWords(): Set<string> {
  const names: string[] = [];
  for (const zone of Intl.supportedValuesOf("timeZone")) names.push(...zone.split("/"));
  const regions = new Intl.DisplayNames(["en"], { type: "region" });
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (const a of letters)
    for (const b of letters) {
      const name = regions.of(a + b);
      if (name !== undefined && name !== a + b) names.push(name);
    }
  return new Set(
    names
      .flatMap((name) => name.split(/[\s_&.,()'-]+/))
      .map(foldedWord)
      .filter((w) => w.length > 1),
  );
}

const PLACE_WORDS = placeWords();
/** The areas of the IANA zones (Europe, Asia, America, ...), to ask the runtime about a city under its current name. */
const ZONE_AREAS = [...new Set(Intl.supportedValuesOf("timeZone").map((zone) => zone.split("/")[0]!))];

/** Cities the runtime knows as zones by a name its list does not show (Asia/Kolkata is listed as Asia/Calcutta). */
const zoneCities = new Map<string, boolean>();
const ZONE_CITIES_MAX = 10_000;

function isZoneCity(word: string): boolean {
  const city = word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
  let known = zoneCities.get(city);
  if (known === undefined) {
    known = ZONE_AREAS.some((area) => isTimeZone(`${area}/${city}`));
    if (zoneCities.size >= ZONE_CITIES_MAX) zoneCities.clear();
    zoneCities.set(city, known);
  }
  return known;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Whether a word is (part of) the name of a city with a time zone, a country or a region. */
export function isPlaceWord(word: string): boolean {
  return PLACE_WORDS.has(foldedWord(word)) || (/^\p{L}{3,}$/u.test(word) && isZoneCity(word));
}
