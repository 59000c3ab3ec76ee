/** The end of a sync run on the command line, shared by a run and a cleanup sweep. */
import type { LoggedFinding } from "../../core/report/code-quality.ts";
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

export function codeQualityName(settings: Pick<SyncSettings, "codeQualitySetting">): string {
  return settings.codeQualitySetting ?? "--codequality";
}

/** What a run's Code Quality report holds beside its results: the findings logged, the specs removed. */
export interface RunFindings {
  logged: readonly LoggedFinding[];
  removedSpecs?: readonly string[] | undefined;
}

/**
 * The end of a run: with `--json` the results on stdout (nothing else goes there) as the Action's
 * `results` output has them (`schema/results.schema.json`), with `--junit` the JUnit report and with
 * `--codequality` GitLab's Code Quality report in their files; 1 when a spec failed or timed out, else 0.
 */
export async function finishSync(
  results: readonly SpecResult[],
  settings: Pick<
    SyncSettings,
    "json" | "junitFile" | "junitSetting" | "codeQualityFile" | "codeQualitySetting"
  >,
  output: Output,
  findings: RunFindings = { logged: [] },
): Promise<number> {
  // The results on stdout even when the JUnit file cannot be written; that failure is then the error.
  if (settings.json) await output.json(toResultRecords(results));
  if (settings.junitFile !== undefined) {
    // A file the CI shows, like stdout and stderr: the token taken out as from every line written.
    await writeOutputFile(junitName(settings), settings.junitFile, output.redact(renderJUnit(results)));
  }
  if (settings.codeQualityFile !== undefined) {
    const { renderCodeQuality } = await import("../../core/report/code-quality.ts");
    const text = renderCodeQuality(results, findings.logged, findings.removedSpecs);
    await writeOutputFile(codeQualityName(settings), settings.codeQualityFile, output.redact(text));
  }
  return results.some((result) => result.status === "failed" || result.status === "timed-out")
    ? ExitCode.failed
    : ExitCode.ok;
}
