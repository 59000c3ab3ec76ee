/**
 * The `yaml` package — positions for placing a finding, and GitBook's own reading of a text js-yaml
 * refuses — run on first use: a file that reads and checks without a finding never runs it. `require`
 * keeps the calls synchronous: the build bundles it as a package whose code runs when first required (its
 * chunk is loaded, 1 ms, but not run, 4 ms of every start); the sources ask Node's loader
 * (docs/design/build-choice.md, "Code loaded, not run").
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let held: typeof Yaml | undefined;

export function yamlPackage(): typeof Yaml {
  held ??= (
    typeof require === "function" ? require("yaml") : createRequire(import.meta.url)("yaml")
  ) as typeof Yaml;
  return held;
}
