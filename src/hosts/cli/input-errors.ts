/**
 * The settings' input errors as the command line says them: named by the flag or variable the user
 * wrote. A light module of its own, so that a command that loads no client (diff) can use it.
 */
import { InputError } from "../../core/plan/input-error.ts";
import { UsageError } from "./errors.ts";

/** Runs `read`, turning the action's input errors into usage errors that name the flag or variable. */
export function checkInputs<T>(read: () => T, settingName: (input: string) => string): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof InputError) throw usageErrorOf(error, settingName);
    throw error;
  }
}

/**
 * An action input error as the CLI user should read it: "Input 'slug-prefix': …" becomes
 * "--slug-prefix: …", and other inputs the message quotes ('organization') become their flags.
 */
export function usageErrorOf(error: InputError, settingName: (input: string) => string): UsageError {
  const prefix = `Input '${error.input}': `;
  const detail = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  const known = new Set([
    "organization",
    "organization-domain",
    "files",
    "slugs",
    "slug-prefix",
    "api-url",
    "token",
    "prune",
    "prune-limit",
  ]);
  const rewritten = detail.replace(/'([a-z-]+)'/g, (whole, name: string) =>
    known.has(name) ? settingName(name) : whole,
  );
  return new UsageError(settingName(error.input), rewritten);
}
