import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type DiscoveredSpec, type LoadedSpec, loadSpec } from "../../src/core/discovery/index.ts";

/** Creates a temp folder holding `files` (path → contents); remove it with `fs.rm(dir, { recursive: true })`. */
export async function makeTree(files: Record<string, string | Buffer>): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "discovery-"));
  await writeFiles(root, files);
  return root;
}

export async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [relative, contents] of Object.entries(files)) {
    const target = path.join(root, relative);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, contents);
  }
}

export { git } from "../support/git.ts";

export const OPENAPI_YAML = "openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths: {}\n";
export const SWAGGER_JSON = JSON.stringify({
  swagger: "2.0",
  info: { title: "Old", version: "1" },
  paths: {},
});

/** A discovered spec's contents, read as the run reads them when the spec's turn comes. */
export function loaded(spec: DiscoveredSpec | undefined): LoadedSpec {
  if (!spec) throw new Error("no spec");
  const outcome = loadSpec(spec);
  if (!outcome.ok) throw new Error(outcome.problem.message);
  return outcome.spec;
}
