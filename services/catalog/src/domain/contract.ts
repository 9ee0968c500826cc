// Builds capability contracts from the data: adds the common fields every recommend and execute
// operation shares, derives required/optional/conditionally-required lists from the fields, and
// derives each contract's status from its operations.
import type { Contract, FieldContract, OperationContract } from "@agentic/proto/catalog/v1";
import type { RawContractDefaults, RawField, RawOperation } from "./schema";

export type OperationKind = "recommend" | "execute";

/** Every field of an operation: recommend gets the common fields first, execute gets the routing controls last. */
export function resolveFields(op: RawOperation, kind: OperationKind, defaults: RawContractDefaults): RawField[] {
  return kind === "recommend" ? [...defaults.recommendFields, ...op.fields] : [...op.fields, ...defaults.executeFields];
}

/** Names of the fields that are conditionally required: explicit ones plus every oneOfRequired member. */
export function conditionalFieldNames(op: RawOperation): Set<string> {
  return new Set([...op.conditionallyRequiredFields, ...op.oneOfRequired.flat()]);
}

/** The wire form of one operation contract. */
export function toOperationContract(op: RawOperation, kind: OperationKind, defaults: RawContractDefaults): OperationContract {
  const fields = resolveFields(op, kind, defaults);
  const required = new Set(op.requiredFields);
  const conditional = conditionalFieldNames(op);
  return definedOnly({
    status: op.status,
    dtoName: op.dtoName,
    requiredFields: fields.filter((f) => required.has(f.name)).map((f) => f.name),
    optionalFields: fields.filter((f) => !required.has(f.name)).map((f) => f.name),
    conditionallyRequiredFields: fields.filter((f) => conditional.has(f.name)).map((f) => f.name),
    fields: fields.map((f) => toFieldContract(f, required.has(f.name), conditional.has(f.name))),
    requestExample: op.requestExample,
    responseExample: op.responseExample,
    notes: op.notes,
    oneOfRequired: op.oneOfRequired.map((group) => ({ fields: group })),
  });
}

function toFieldContract(f: RawField, required: boolean, conditionallyRequired: boolean): FieldContract {
  const nestedRequired = new Set(f.requiredFields ?? []);
  return definedOnly({
    name: f.name,
    type: f.type,
    required,
    conditionallyRequired: conditionallyRequired ? true : undefined,
    enumValues: f.enumValues ?? [],
    maxLength: f.maxLength,
    itemMaxLength: f.itemMaxLength,
    min: f.min,
    max: f.max,
    itemsType: f.itemsType,
    fields: (f.fields ?? []).map((child) => toFieldContract(child, nestedRequired.has(child.name), false)),
    notes: f.notes ?? [],
    format: f.format,
  });
}

/** available when both operations are fully described, unavailable when neither is described, else partial. */
export function contractStatusOf(recommend?: { status: string }, execute?: { status: string }): string {
  if (!recommend && !execute) return "unavailable";
  return recommend?.status === "available" && execute?.status === "available" ? "available" : "partial";
}

/** Assembles a capability contract. */
export function toContract(
  ids: { domainKey: string; capabilityKey: string; capabilityId: string; docsUrl?: string | undefined },
  contract: { notes: string[]; recommend?: RawOperation | undefined; execute?: RawOperation | undefined },
  defaults: RawContractDefaults,
): Contract {
  const recommend = contract.recommend && toOperationContract(contract.recommend, "recommend", defaults);
  const execute = contract.execute && toOperationContract(contract.execute, "execute", defaults);
  return definedOnly({
    domainKey: ids.domainKey,
    capabilityKey: ids.capabilityKey,
    capabilityId: ids.capabilityId,
    docsUrl: ids.docsUrl,
    contractStatus: contractStatusOf(recommend, execute),
    recommend,
    execute,
    notes: [...defaults.contractNotes, ...contract.notes],
  });
}

/** Drops keys whose value is undefined, so unset optional proto fields are absent (and hash the same). */
export function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
