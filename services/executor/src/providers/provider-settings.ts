// Account settings several providers read from the environment the same way.
import type { EnvReader } from "./provider-table";

/** `{name: value}` when the value is set, else nothing. */
export function optionalSetting(name: string, value: string | undefined): Record<string, string> {
  return value === undefined ? {} : { [name]: value };
}

/** The sender email.send uses when the input has no `from` (EMAIL_DEFAULT_FROM), for the managed-domain senders. */
export function defaultSenderFrom(read: EnvReader): Record<string, string> {
  return optionalSetting("defaultFrom", read("EMAIL_DEFAULT_FROM"));
}
