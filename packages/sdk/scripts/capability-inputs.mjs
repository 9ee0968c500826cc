// Renders the catalog's contracts of live capabilities as TypeScript: one input type per capability
// and operation, and the maps from "<domainKey>/<capabilityId>" to them that type the SDK's
// recommend and execute calls. Pure: contracts in, source text out.

/**
 * The routing controls every execute contract ends with (the catalog adds them to each one): the
 * SDK takes them as options of execute, so they are not part of a capability's input type.
 */
const ROUTING_CONTROLS = new Set(["provider", "routeKey", "allowFallback"]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const pascal = (text) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join("");

const propertyName = (name) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

/** A JSDoc block from a field's notes and limits; empty when there is nothing to say. */
function doc(lines, indent) {
  const text = lines.filter(Boolean).map((line) => line.replaceAll("*/", "*\\/"));
  if (text.length === 0) return "";
  if (text.length === 1) return `${indent}/** ${text[0]} */\n`;
  return `${indent}/**\n${text.map((line) => `${indent} * ${line}`).join("\n")}\n${indent} */\n`;
}

function limits(field) {
  const parts = [];
  if (field.format) parts.push(`format: ${field.format}`);
  if (field.maxLength !== undefined) parts.push(`max length: ${field.maxLength}`);
  if (field.itemMaxLength !== undefined) parts.push(`longest item: ${field.itemMaxLength}`);
  if (field.min !== undefined) parts.push(`min: ${field.min}`);
  if (field.max !== undefined) parts.push(`max: ${field.max}`);
  return parts.length > 0 ? `(${parts.join("; ")})` : "";
}

function scalar(type, enumValues) {
  if (enumValues.length > 0) return enumValues.map((value) => JSON.stringify(value)).join(" | ");
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
      return "Record<string, unknown>";
    default:
      return "unknown";
  }
}

function fieldType(field, indent) {
  switch (field.type) {
    case "array": {
      const item = field.fields.length > 0 ? objectType(field.fields, indent) : scalar(field.itemsType ?? "unknown", field.enumValues);
      return `Array<${item}>`;
    }
    case "object":
      return field.fields.length > 0 ? objectType(field.fields, indent) : "Record<string, unknown>";
    default:
      return scalar(field.type, field.enumValues);
  }
}

function objectType(fields, indent, open = false) {
  const inner = `${indent}  `;
  const members = fields.map(
    (f) => `${doc([...f.notes, limits(f)], inner)}${inner}${propertyName(f.name)}${f.required ? "" : "?"}: ${fieldType(f, inner)};\n`,
  );
  if (open)
    members.push(
      `${doc(["The contract is partial: fields it does not list are passed on as they are."], inner)}${inner}[field: string]: unknown;\n`,
    );
  return `{\n${members.join("")}${indent}}`;
}

/** `{ a: A } | { b: B }` for each oneOfRequired group: at least one field of the group must be sent. */
function oneOfGroups(operation, fields) {
  return operation.oneOfRequired
    .map((group) => (Array.isArray(group) ? group : group.fields))
    .map((names) => {
      const options = names.map((name) => {
        const field = fields.find((f) => f.name === name);
        return `{ ${propertyName(name)}: ${field ? fieldType(field, "") : "unknown"} }`;
      });
      return `(${options.join(" | ")})`;
    });
}

function operationType(name, operation, description, skip) {
  const fields = operation.fields.filter((f) => !skip.has(f.name));
  const body = objectType(fields, "", operation.status !== "available");
  const groups = oneOfGroups(operation, fields);
  return `${doc(description, "")}export type ${name} = ${[body, ...groups].join(" & ")};\n`;
}

/**
 * Source text of capability-inputs.ts for `capabilities`: `{ domainKey, capabilityId, label,
 * capabilityKey, description, startingPriceCredits, contract: { recommend?, execute? } }` of each live capability.
 */
export function renderCapabilityInputs(capabilities) {
  const types = [];
  const executeMap = [];
  const recommendMap = [];
  for (const c of capabilities) {
    const key = `${c.domainKey}/${c.capabilityId}`;
    const base = pascal(`${c.domainKey}-${c.capabilityId}`);
    const price = c.startingPriceCredits === undefined ? "" : ` From ${c.startingPriceCredits} credits (1000 credits = 1 USD).`;
    const about = [`${c.label} (${c.capabilityKey}): ${c.description}${price}`];
    if (c.contract.execute) {
      types.push(operationType(`${base}ExecuteInput`, c.contract.execute, [...about, "Input of execute."], ROUTING_CONTROLS));
      executeMap.push(`  ${JSON.stringify(key)}: ${base}ExecuteInput;\n`);
    }
    if (c.contract.recommend) {
      types.push(operationType(`${base}RecommendInput`, c.contract.recommend, [...about, "Input of recommend."], new Set()));
      recommendMap.push(`  ${JSON.stringify(key)}: ${base}RecommendInput;\n`);
    }
  }
  return [
    "// Generated by `npm run generate -w packages/sdk` from the catalog's contracts of live capabilities. Do not edit.\n",
    ...types,
    `/** Execute input of each live capability, by \`<domainKey>/<capabilityId>\`. */\nexport interface CapabilityExecuteInputs {\n${executeMap.join("")}}\n`,
    `/** Recommend input of each live capability, by \`<domainKey>/<capabilityId>\`. */\nexport interface CapabilityRecommendInputs {\n${recommendMap.join("")}}\n`,
  ].join("\n");
}
