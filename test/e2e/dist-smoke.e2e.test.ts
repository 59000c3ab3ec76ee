/**
 * The committed bundles run: one minimal publish per bundle against the emulator. Every other end-to-end
 * test runs the sources; this one proves that the build did not lose anything on the way.
 * Another bundle (the CLI's `dist/cli.js`) joins by adding an entry to BUNDLES.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { ACTION_BUNDLE, repositoryRoot, runActionLikeRunner } from "../../harness/runner/action-runner.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

interface Bundle {
  /** Relative to the repository. */
  file: string;
  /** Publishes `workspace` to `api`'s organization demo-org, as a user would run this bundle. */
  publish(api: RunningEmulator, workspace: string): Promise<{ exitCode: number; stderr: string }>;
}

const BUNDLES: Bundle[] = [
  {
    file: ACTION_BUNDLE,
    publish: (api, workspace) =>
      runActionLikeRunner({
        entry: ACTION_BUNDLE,
        workspace,
        inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl },
        env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "a".repeat(40) },
      }),
  },
];

/** Text found only in the harness; a bundle holding it bundled the harness. */
const HARNESS_ONLY = ["http://emulator.invalid", "Runs a local emulator of GitBook"];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(BUNDLES)("the built $file", (bundle) => {
  const file = path.join(repositoryRoot, bundle.file);

  it.skipIf(!existsSync(file))("publishes a spec to the emulator", async () => {
    const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
    cleanups.push(() => api.close());
    const workspace = await emptyWorkspace({ "openapi.yaml": minimalSpec("Smoke") });
    cleanups.push(() => removeWorkspace(workspace));

    const run = await bundle.publish(api, workspace);

    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(api.listSpecs("demo-org").map((spec) => spec.processingState)).toEqual(["complete"]);
  });

  it.skipIf(!existsSync(file))("holds no harness code, nor do the chunks it loads", async () => {
    const folder = path.dirname(file);
    const scripts = (await readdir(folder, { recursive: true })).filter((name) => name.endsWith(".js"));
    expect(scripts).toContain(path.basename(file));
    const found: string[] = [];
    for (const script of scripts) {
      const text = await readFile(path.join(folder, script), "utf8");
      for (const marker of HARNESS_ONLY) if (text.includes(marker)) found.push(`${script}: ${marker}`);
    }
    expect(found).toEqual([]);
  });
});
