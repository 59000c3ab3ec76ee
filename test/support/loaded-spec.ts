import { loadBytes } from "../../src/core/discovery/load.ts";
import type { LoadedSpec } from "../../src/core/discovery/types.ts";

/** A spec as the pipeline loads it when its turn comes, from its text (at `/w/<path>`). */
export function loadedSpec(text: string, format: "yaml" | "json", path: string): LoadedSpec {
  const names = { path, absolutePath: `/w/${path}`, realPath: `/w/${path}` };
  const discovered = { ...names, format, flavor: "openapi", declaredVersion: "", bytes: 0 } as const;
  const outcome = loadBytes(Buffer.from(text), discovered);
  if (!outcome.ok) throw new Error(outcome.problem.message);
  return outcome.spec;
}
