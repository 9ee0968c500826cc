// Collects what the validator finds, per overlay, at four levels, and prints them.
//   error   - the manifests are wrong; the run fails
//   warning - probably a mistake (e.g. a variable no config schema reads); the run passes
//   skip    - a check that could not run (e.g. a service's dist/ is not built yet)
//   note    - information for the operator (e.g. Secrets that must exist before deploying)

/** The level names in print order. */
export const LEVELS = /** @type {const} */ (["error", "warning", "skip", "note"]);

const LABEL = { error: "ERROR", warning: "WARN ", skip: "SKIP ", note: "NOTE " };

/** Findings of one overlay. `subject` names a resource, e.g. "Deployment/ledger". */
export class Findings {
  /** @param {string} overlay the overlay's display name */
  constructor(overlay) {
    this.overlay = overlay;
    /** @type {{level: typeof LEVELS[number], subject: string, message: string}[]} */
    this.items = [];
  }

  error(subject, message) {
    this.items.push({ level: "error", subject, message });
  }

  warning(subject, message) {
    this.items.push({ level: "warning", subject, message });
  }

  skip(subject, message) {
    this.items.push({ level: "skip", subject, message });
  }

  note(subject, message) {
    this.items.push({ level: "note", subject, message });
  }

  /** Number of findings at `level`. */
  count(level) {
    return this.items.filter((item) => item.level === level).length;
  }

  /** Lines for a terminal, errors first. */
  format() {
    return LEVELS.flatMap((level) =>
      this.items.filter((item) => item.level === level).map((item) => `  ${LABEL[level]} ${item.subject}: ${item.message}`),
    );
  }
}

/** Short name of a rendered object, e.g. "Deployment/ledger". */
export function subjectOf(doc) {
  return `${doc?.kind ?? "?"}/${doc?.metadata?.name ?? "?"}`;
}
