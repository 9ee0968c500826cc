// Every loader rule has a failing fixture in test/fixtures/<rule>/; each must be reported with
// the file and the field path (and line) where the author has to fix it.
import { cpSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadCatalog } from "../source";
import { CatalogValidationError, type CatalogProblem } from "./index";

const FIXTURES = resolve(__dirname, "../../test/fixtures");

/** A temp copy of fixtures/valid with fixtures/<rule> copied over it. */
function fixtureCatalog(rule: string): string {
  const dir = mkdtempSync(join(tmpdir(), `catalog-${rule}-`));
  cpSync(join(FIXTURES, "valid"), dir, { recursive: true });
  cpSync(join(FIXTURES, rule), dir, { recursive: true });
  return dir;
}

function problemsOf(dir: string): CatalogProblem[] {
  try {
    loadCatalog(dir);
  } catch (err) {
    if (err instanceof CatalogValidationError) return err.problems;
    throw err;
  }
  throw new Error(`expected ${dir} to be rejected`);
}

type Expected = [file: string, path: string, message: RegExp];
const ROUTE0 = "capabilities[0].routes[0]";
const EXECUTE = "capabilities[0].contract.execute";

/** fixture folder -> every problem it must produce. */
const CASES: Record<string, Expected[]> = {
  // YAML and schema
  "yaml-syntax": [
    ["email.yaml", "", /YAML syntax error: Nested mappings/],
    ["email.yaml", "", /YAML syntax error: Implicit keys/],
  ],
  "duplicate-yaml-key": [["email.yaml", "", /Map keys must be unique/]],
  "unknown-field": [["email.yaml", `${ROUTE0}.vendor`, /unknown field "vendor"/]],
  "unknown-network-key": [["email.yaml", `${ROUTE0}.networkKey`, /"direct"\|"agentcash"\|"mpp"/]],
  "unknown-route-mode": [["email.yaml", `${ROUTE0}.routeMode`, /"managed"\|"byo"\|"redirect"/]],
  "unknown-capability-status": [["email.yaml", "capabilities[0].status", /"live"\|"recommend_only"\|"planned"\|"pending"/]],
  "unknown-route-status": [["email.yaml", `${ROUTE0}.status`, /"live"\|"pending"/]],
  "negative-price": [["email.yaml", `${ROUTE0}.priceCredits`, /at least 1 credit/]],
  "non-numeric-price": [["email.yaml", `${ROUTE0}.priceCredits`, /must be a number of credits/]],
  "fractional-price": [["email.yaml", `${ROUTE0}.priceCredits`, /whole number of credits/]],
  "missing-price-source": [["email.yaml", `${ROUTE0}.priceSource`, /priceSource .* is required/]],
  "capability-without-routes": [["geo.yaml", "capabilities[0].routes", /at least one route/]],
  "priors-out-of-range": [["email.yaml", `${ROUTE0}.priors.successRate`, /within 0\.\.1/]],
  "vendor-quota-share-above-quota": [["email.yaml", `${ROUTE0}.vendorQuota`, /perUser cannot exceed vendorQuota\.requests/]],
  "vendor-quota-not-on-our-key": [["email.yaml", "capabilities[0].routes[2].vendorQuota", /only a route on our own vendor account/]],
  "intent-example-repeated": [["email.yaml", "capabilities[0].intent.examples[2]", /repeats intent\.examples\[1\]/]],
  "intent-too-few-examples": [["email.yaml", "capabilities[0].intent.examples", /at least 3 example tasks/]],
  "bad-key-format": [["email.yaml", "capabilities[1].key", /capability key must match/]],
  // keys and names
  "provider-named-domain": [["_catalog.yaml", "domains[2]", /domain "resend" is named after the provider "resend"/]],
  "provider-named-capability": [["email.yaml", "capabilities[1].key", /"resend" names the provider "resend"/]],
  "vendor-named-capability": [["email.yaml", "capabilities[1].key", /"openai" names the known vendor "openai"/]],
  "duplicate-domain": [["_catalog.yaml", "domains[2]", /duplicate domain "email"/]],
  "duplicate-capability-key": [["email.yaml", "capabilities[1].key", /duplicate capability key "send"/]],
  "duplicate-route-key": [["email.yaml", "capabilities[0].routes[1]", /duplicate route key "email\.send\.resend"/]],
  "unknown-provider": [["email.yaml", "capabilities[0].routes[1].providerKey", /unknown provider "mailchimp"/]],
  "missing-domain-file": [["_catalog.yaml", "domains[2]", /"travel" has no file travel\.yaml/]],
  "unlisted-domain-file": [["travel.yaml", "", /not listed in _catalog\.yaml/]],
  // statuses
  "live-capability-without-live-route": [["email.yaml", "capabilities[0].status", /needs at least one route with status "live"/]],
  "live-route-under-planned-capability": [
    ["email.yaml", "capabilities[1].routes[0].status", /cannot be "live" while its capability is "planned"/],
  ],
  "recommend-only-ungated-route": [["geo.yaml", `${ROUTE0}.executionGated`, /must be true/]],
  // contracts
  "contract-required-field-unknown": [
    ["email.yaml", `${EXECUTE}.requiredFields[2]`, /"body" is not in fields/],
    ["email.yaml", `${EXECUTE}.requestExample`, /missing required field "body"/],
  ],
  "contract-one-of-unknown-field": [
    ["email.yaml", `${EXECUTE}.oneOfRequired[0][1]`, /"markdown" is not in fields/],
    ["email.yaml", `${EXECUTE}.requestExample`, /needs one of html, markdown/],
  ],
  "contract-duplicate-field": [["email.yaml", `${EXECUTE}.fields[4].name`, /duplicate field "to"/]],
  "contract-common-field-redeclared": [
    ["email.yaml", "capabilities[0].contract.recommend.fields[0].name", /"agentName" is added to every recommend contract/],
  ],
  "contract-field-shape": [["email.yaml", `${EXECUTE}.fields[4].itemsType`, /array field needs itemsType/]],
  "contract-available-incomplete": [["email.yaml", `${EXECUTE}.dtoName`, /available operation needs a dtoName/]],
  "contract-conditional-without-notes": [["email.yaml", `${EXECUTE}.conditionallyRequiredFields[0]`, /"subject" needs notes/]],
  "contract-example-mismatch": [["email.yaml", `${EXECUTE}.requestExample.body`, /"body" is not a field of this contract/]],
  "contract-response-example-route": [
    ["email.yaml", `${EXECUTE}.responseExample.routeKey`, /"email\.send\.mailgun" is not a route of this capability/],
  ],
  "duplicate-dto-name": [["geo.yaml", "capabilities[0].contract.recommend.dtoName", /already used by email\.yaml/]],
  "contract-size-caps": [
    ["email.yaml", `${EXECUTE}.fields[4].itemMaxLength`, /only arrays of strings have itemMaxLength/],
    ["email.yaml", `${EXECUTE}.fields[5].maxLength`, /bounded by them; maxLength is for free-form objects/],
  ],
  // model routes
  "model-listed-twice": [["models.yaml", `${ROUTE0}.models[1].model`, /duplicate model "gpt-4o-mini" \(also models\[0\]\)/]],
  "model-live-route-unlisted": [["models.yaml", "capabilities[0].routes[1]", /live route .* must list its models/]],
  "model-contract-incomplete": [
    ["models.yaml", EXECUTE, /needs a required string field "model"/],
    ["models.yaml", EXECUTE, /per-token route needs an integer execute field "max_tokens"/],
  ],
  "model-price-precision": [["models.yaml", `${ROUTE0}.models[0].inputUsdPerMillionTokens`, /at most 4 decimals/]],
};

describe("catalog validation fixtures", () => {
  it("the valid base fixture loads", () => {
    expect(() => loadCatalog(join(FIXTURES, "valid"))).not.toThrow();
  });

  it("every fixture folder has a case (and every case a folder)", () => {
    const folders = readdirSync(FIXTURES).filter((n) => n !== "valid" && statSync(join(FIXTURES, n)).isDirectory());
    expect(folders.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))("%s: names the file and field", (rule, expected) => {
    const problems = problemsOf(fixtureCatalog(rule));
    expect(problems.map((p) => [p.file, p.path])).toEqual(expected.map(([file, path]) => [file, path]));
    expected.forEach(([, , message], i) => expect(problems[i]?.message).toMatch(message));
  });

  it("gives field problems a line number and whole-file problems none", () => {
    const [price] = problemsOf(fixtureCatalog("negative-price"));
    expect(price?.line).toBe(10);
    const [unlisted] = problemsOf(fixtureCatalog("unlisted-domain-file"));
    expect(unlisted?.line).toBeUndefined();
    const [syntax] = problemsOf(fixtureCatalog("duplicate-yaml-key"));
    expect(syntax?.line).toBe(3);
  });

  it("collects problems from several files before throwing, and lists them in the error message", () => {
    const dir = fixtureCatalog("negative-price");
    cpSync(join(FIXTURES, "recommend-only-ungated-route"), dir, { recursive: true });
    cpSync(join(FIXTURES, "duplicate-domain"), dir, { recursive: true });
    let error: CatalogValidationError | undefined;
    try {
      loadCatalog(dir);
    } catch (err) {
      error = err as CatalogValidationError;
    }
    expect(error).toBeInstanceOf(CatalogValidationError);
    expect(error?.problems.map((p) => p.file).sort()).toEqual(["_catalog.yaml", "email.yaml", "geo.yaml"]);
    expect(error?.message).toContain("3 problems");
    expect(error?.message).toContain("email.yaml:10 capabilities[0].routes[0].priceCredits: priceCredits must be at least 1 credit");
  });

  it("reports a missing catalog-wide file", () => {
    const dir = mkdtempSync(join(tmpdir(), "catalog-empty-"));
    expect(problemsOf(dir).map((p) => p.file)).toEqual(["_catalog.yaml", "_providers.yaml", "_contract-defaults.yaml"]);
  });
});
