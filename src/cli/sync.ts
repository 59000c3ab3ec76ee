/**
 * The `sync` command: finds, checks and publishes the OpenAPI specs of a folder, as the action does.
 * {@link runSyncCommand} is where the CI-neutral core (`runSync(plan, ports)`) gets called;
 * {@link finishSync} writes what a run produced (JSON on stdout, the JUnit file) and gives the exit code.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { renderJUnit } from "../report/junit.ts";
import type { SpecResult } from "../sync/result.ts";
import { ExitCode } from "./exit-codes.ts";
import type { Output } from "./output.ts";
import type { SyncSettings } from "./sync-settings.ts";

/** Runs a sync with the given settings; resolves to the exit code. */
export async function runSyncCommand(_settings: SyncSettings, _output: Output): Promise<number> {
  throw new Error(
    "The sync command is not wired yet: it will call the shared sync core once that lands. Use the GitHub Action meanwhile.",
  );
}

/**
 * The end of a run: with `--json` the results array on stdout (nothing else goes there), with `--junit`
 * the JUnit report in its file; 1 when a spec failed or timed out, else 0.
 */
export async function finishSync(
  results: readonly SpecResult[],
  settings: Pick<SyncSettings, "json" | "junitFile">,
  output: Output,
): Promise<number> {
  if (settings.junitFile !== undefined) {
    await mkdir(path.dirname(settings.junitFile), { recursive: true });
    await writeFile(settings.junitFile, renderJUnit(results));
  }
  if (settings.json) output.json(results);
  return results.some((result) => result.status === "failed" || result.status === "timed-out")
    ? ExitCode.failed
    : ExitCode.ok;
}
