// A capability's execute contract as a form: one input per field, typed by the field (text, number, checkbox,
// comma-separated list, JSON), prefilled from the contract's example; values() gives the execute body.
import type { ContractField } from "../types";

/** The body the form's values make: empty inputs left out, each value converted to its field's type. */
export function bodyOf(form: HTMLFormElement, fields: ContractField[]): Record<string, unknown> {
  const data = new FormData(form);
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.type === "boolean") {
      const raw = data.get(f.name);
      if (raw === "true" || raw === "false") body[f.name] = raw === "true";
      continue;
    }
    const raw = String(data.get(f.name) ?? "").trim();
    if (raw === "") continue;
    if (f.type === "integer" || f.type === "number") body[f.name] = Number(raw);
    else if (f.type === "array")
      body[f.name] = raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else if (f.type === "object") body[f.name] = JSON.parse(raw);
    else body[f.name] = raw;
  }
  return body;
}

/** The routing controls: left empty (the example's pin would silently change the route and its price), set only by hand. */
export const ROUTING_FIELDS = new Set(["routeKey", "provider", "allowFallback", "maxPriceCredits", "optimizationPreferences"]);
/** Fields the playground sets itself: the recommendation it shows; quotes are not offered here. */
export const PLAYGROUND_FIELDS = new Set(["recommendationId", "quoteId"]);

function initial(f: ContractField, example: Record<string, unknown> | undefined): string {
  if (ROUTING_FIELDS.has(f.name)) return "";
  const v = example?.[f.name];
  if (v === undefined) return "";
  if (Array.isArray(v)) return v.join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

export function ContractForm({ fields, example }: { fields: ContractField[]; example?: Record<string, unknown> }) {
  return (
    <fieldset class="contract">
      <legend>Input</legend>
      {fields
        .filter((f) => !PLAYGROUND_FIELDS.has(f.name))
        .map((f) => {
          const id = `field-${f.name}`;
          const value = initial(f, example);
          const label = (
            <label for={id}>
              {f.name}
              {f.required ? " (required)" : ""} <span class="muted">{f.type}</span>
            </label>
          );
          let input;
          if (f.type === "boolean")
            input = (
              <select id={id} name={f.name} value={value}>
                <option value="">default</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            );
          else if (f.enumValues && f.type !== "array")
            input = (
              <select id={id} name={f.name} value={value}>
                <option value="">—</option>
                {f.enumValues.map((v) => (
                  <option key={v}>{v}</option>
                ))}
              </select>
            );
          else if (f.type === "object" || (f.maxLength ?? 0) > 1000)
            input = <textarea id={id} name={f.name} value={value} required={f.required} rows={3} />;
          else
            input = (
              <input
                id={id}
                name={f.name}
                value={value}
                required={f.required}
                type={(f.type === "integer" || f.type === "number" ? "number" : f.format === "email" ? "email" : "text") as "text"}
                maxLength={f.maxLength}
              />
            );
          return (
            <div class="field" key={f.name}>
              {label}
              {input}
              {f.notes?.length ? <p class="muted">{f.notes.join(" ")}</p> : null}
            </div>
          );
        })}
    </fieldset>
  );
}
