import type { RunningEmulator } from "../../harness/emulator/index.ts";

/** The slugs the emulator holds under `<prefix>-` in an organization, sorted. */
export function slugsUnder(emulator: RunningEmulator, org: string, prefix: string): string[] {
  return emulator
    .listSpecs(org)
    .map((spec) => spec.slug)
    .filter((slug) => slug.startsWith(`${prefix}-`))
    .sort();
}
