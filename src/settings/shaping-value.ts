/**
 * How a configuration file's shaping travels among the settings' values, as JSON. A module of its own,
 * without the YAML reader, so that reading the settings (src/settings/inputs.ts) loads no YAML
 * (src/settings/shaping-config.ts, which reads the file's entries, re-exports it).
 */
import type { ShapingConfig, SpecShaping } from "../core/shaping/publish-targets.ts";

/**
 * The name the shaping of a configuration file travels under among its values: not a setting (no input,
 * flag or variable has it), so only the file gives it.
 */
export const SHAPING_INPUT = "specs:shaping";

/** The file's shaping as the value {@link SHAPING_INPUT} carries. */
export function shapingValue(shaping: ReadonlyMap<string, SpecShaping>): string {
  return JSON.stringify([...shaping]);
}

/** The shaping a {@link SHAPING_INPUT} value carries (empty for ""). */
export function readShapingValue(text: string): ShapingConfig {
  if (text === "") return new Map();
  const entries = JSON.parse(text) as Array<[string, SpecShaping]>;
  if (!Array.isArray(entries)) throw new Error(`${SHAPING_INPUT} is not a list of entries.`);
  return new Map(entries);
}
