// The compiled catalog: every answer encoded once per catalog version, stored by what it was compiled from.
export { compileCatalog, readCompiled, COMPILED_FORMAT } from "./format";
export { compiledKeyOf, type CatalogFileBytes } from "./key";
export { servedCatalogOf, type EncodedAnswers, type ServedCatalog } from "./served-catalog";
export { artifactPath, DEFAULT_COMPILED_DIR, readArtifact, writeArtifact } from "./store";
