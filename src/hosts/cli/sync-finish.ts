/** The end of a sync run on the command line, shared by a run and a cleanup sweep. */
import { renderJUnit } from "../../core/report/junit.ts";
import { toResultRecords } from "../../core/report/results-record.ts";
import type { SpecResult } from "../../core/result.ts";
import { ExitCode } from "./exit-codes.ts";
import type { Output } from "./output.ts";
import { writeOutputFile } from "./output-file.ts";
import type { SyncSettings } from "./sync-settings.ts";

/** What to do without a token, in the command line's words. */
export const CLI_TOKEN_HINT =
  "Set GITBOOK_TOKEN (from your CI's secret variables) or pass --token-file PATH, or use --mode check to validate without publishing.";

export function junitName(settings: Pick<SyncSettings, "junitSetting">): string {
  return settings.junitSetting ?? "--junit";
}

/**
 * The end of a run: with `--json` the results on stdout (nothing else goes there) as the Action's
 * `results` output has them (`schema/results.schema.json`), with `--junit` the JUnit report in its
 * file; 1 when a spec failed or timed out, else 0.
 */
export async function finishSync(
  results: readonly SpecResult[],
  settings: Pick<SyncSettings, "json" | "junitFile" | "junitSetting">,
  output: Output,
): Promise<number> {
  // The results on stdout even when the JUnit file cannot be written; that failure is then the error.
  if (settings.json) await output.json(toResultRecords(results));
  if (settings.junitFile !== undefined) {
    // A file the CI shows, like stdout and stderr: the token taken out as from every line written.
    await writeOutputFile(junitName(settings), settings.junitFile, output.redact(renderJUnit(results)));
  }
  return results.some((result) => result.status === "failed" || result.status === "timed-out")
    ? ExitCode.failed
    : ExitCode.ok;
}
