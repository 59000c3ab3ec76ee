/**
 * The `sync` command: finds, checks and publishes the OpenAPI specs of a folder, as the action does.
 * {@link runSyncCommand} is where the CI-neutral core (`runSync(plan, ports)`) gets called;
 * {@link finishSync} writes what a run produced (JSON on stdout, the JUnit file) and gives the exit code.
 */

import { readdirSync } from "node:fs";
import { BitbucketContextError } from "../../adapters/bitbucket/context.ts";
import { commandLineGit } from "../../adapters/git/base-tree.ts";
import { EventPayloadError } from "../../adapters/github/context.ts";
import { GitLabContextError } from "../../adapters/gitlab/context.ts";
import { sourcePlace, specChangeLine } from "../../core/change-review/change-line.ts";
import { DiscoveryError } from "../../core/discovery/index.ts";
import type { Logger, SourceLocation } from "../../core/logger.ts";
import { InputError } from "../../core/plan/input-error.ts";
import { resolveMode } from "../../core/plan/mode.ts";
import { planOf } from "../../core/plan/plan.ts";
import { reviewTarget } from "../../core/plan/review-target.ts";
import type { RequestedMode } from "../../core/plan/run-settings.ts";
import { type SyncMode, systemClock } from "../../core/ports.ts";
import { changesHeadline } from "../../core/report/changes.ts";
import type { LoggedFinding } from "../../core/report/code-quality.ts";
import { finalFailureMessage, runFailureMessage } from "../../core/report/outputs.ts";
import { isFailure, partialCounts, statusLabel } from "../../core/report/status.ts";
import { headline } from "../../core/report/summary.ts";
import type { SpecResult } from "../../core/result.ts";
import { redactedReview } from "../../core/review-thread/redacted-review.ts";
import { OrganizationLookupError, UnknownOrganizationError } from "../../core/run/organization.ts";
import { runSync, type SyncReport } from "../../core/run/run.ts";
import { STOP_GRACE_MS } from "../../core/run/stopped.ts";
import { AuthenticationError, PermissionDeniedError } from "../../core/service/errors.ts";
import { namedAfterRepository } from "../../core/slugs/derive.ts";
import { SlugInputError } from "../../core/slugs/errors.ts";
import { escapeUntrusted } from "../../core/text/log-protocol.ts";
import { readConfig } from "../../settings/inputs.ts";
import { type CiRun, readCiRun, runCommit } from "./ci.ts";
import { UsageError } from "./errors.ts";
import { ExitCode } from "./exit-codes.ts";
import { checkInputs } from "./input-errors.ts";
import { createCliLog } from "./log.ts";
import { type Output, printable, type SyncTiming } from "./output.ts";
import { checkOutputFile } from "./output-file.ts";
import { Interrupted, listenForStop, type SignalSource } from "./signals.ts";
import { describeCollisionsForCli } from "./slug-fixes.ts";
import type { Env } from "./streams.ts";
import { CLI_TOKEN_HINT, codeQualityName, finishSync, junitName } from "./sync-finish.ts";
import type { SyncSettings } from "./sync-settings.ts";
import { type Palette, statusPaint } from "./terminal.ts";

/** Runs a sync with the given settings; resolves to the exit code. */
export async function runSyncCommand(
  given: SyncSettings,
  output: Output,
  env: Env,
  signals?: SignalSource,
  timing: SyncTiming = {},
): Promise<number> {
  // Refused before the run, rather than after it: a FIFO, a device or a folder named by --junit.
  if (given.junitFile !== undefined) checkOutputFile(junitName(given), given.junitFile);
  if (given.codeQualityFile !== undefined) checkOutputFile(codeQualityName(given), given.codeQualityFile);
  const ci = readCi(env, given);
  if (isCleanupSweep(given, ci)) {
    // Each closed pull request is cleaned up as `--merge-request N` would; one report at the end.
    const { runCleanupSweep } = await import("./sweep.ts");
    return runCleanupSweep(given, output, env, ci, (number: number) =>
      syncRun(given, output, env, readCi(env, { ...given, mergeRequest: number }), {
        signals,
        timing,
        part: true,
      }),
    );
  }
  return (await syncRun(given, output, env, ci, { signals, timing })).code;
}

/** `sync --mode cleanup` without a pull request, where the CI can tell which pull requests are closed. */
function isCleanupSweep(given: SyncSettings, ci: CiRun): boolean {
  return (
    ci.review === undefined &&
    ci.pullRequestStates !== undefined &&
    given.readInput("mode").toLowerCase() === "cleanup"
  );
}

/** One run of the sync: its exit code and results. */
async function syncRun(
  given: SyncSettings,
  output: Output,
  env: Env,
  ci: CiRun,
  {
    signals,
    timing = {},
    part = false,
  }: {
    signals?: SignalSource | undefined;
    timing?: SyncTiming;
    /** A part of a cleanup sweep: the sweep writes `--json` and `--junit` once, for every part. */
    part?: boolean;
  },
): Promise<{ code: number; results: readonly SpecResult[] }> {
  const { settings, warnings } = await reviewSettings(given, ci);
  const requestedMode = settings.readInput("mode").toLowerCase();
  const cleanup = requestedMode === "cleanup";
  // `cleanup` is the command line's own mode (GitLab has no "closed" event); the inputs know the rest.
  const readInput = (name: string) => (name === "mode" && cleanup ? "publish" : settings.readInput(name));
  const config = checkInputs(
    () => readConfig(readInput, { tokenHint: CLI_TOKEN_HINT }),
    settings.settingName,
  );
  const mode = resolveCliMode(cleanup ? "cleanup" : config.mode, ci, settings);
  const { logger: cliLogger, progress } = createCliLog(output, {
    gitlabSections: ci.name === "GitLab CI",
    debug: /^(1|true)$/i.test(env.GITBOOK_DEBUG ?? ""),
    liveColumns: output.errorManners.liveColumns,
    quiet: settings.quiet,
    palette: output.errorPalette,
  });
  // For the Code Quality report: every finding the run logs at a place (validation's errors and warnings).
  const logged: LoggedFinding[] = [];
  const logger = settings.codeQualityFile === undefined ? cliLogger : recordingFindings(cliLogger, logged);
  for (const warning of warnings) logger.warning(warning);
  const { repository } = ci;
  logger.debug(
    escapeUntrusted(
      `Repository: ${repository.identity ?? "unknown"}, named '${repository.name}', from ${repository.source}.`,
    ),
  );
  const sourceUrlFor =
    config.source === "url" ? checkInputs(() => ci.sourceUrls(), settings.settingName) : undefined;
  if (config.source === "url" && !sourceUrlFor) {
    throw new UsageError(
      settings.settingName("source"),
      "'url' needs the file's address on the repository's server, known on GitHub Actions and GitLab CI only; use --source text here.",
    );
  }
  const plan = planOf(config, {
    workspace: settings.workspace,
    mode,
    repositoryName: ci.repository.name,
    repositoryNameGuess: ci.repository.guessedName,
    repositoryIdentity: ci.repository.identity,
    // The commit goes into publish records and prune's proofs of ancestry, which both need GitBook: a
    // run without a token has no use for it, and asks git nothing.
    commit: config.token ? await runCommit(env, ci, settings.workspace) : undefined,
    review: mode === "preview" || mode === "cleanup" ? ci.review && reviewTarget(ci.review) : undefined,
    sourceUrlFor,
    lineLinks: ci.lineLinks(),
    baseCommit: settings.readInput("base-commit") || ci.baseCommit,
    names: (setting) => settings.settingName(setting),
  });
  const redact = (text: string) => output.redact(text);
  const listening = listenForStop(signals, {
    onFirst: (signal) => {
      const text = `${signal} received: no other spec starts; the specs under way get ${STOP_GRACE_MS / 1000} s to end, then the partial report follows. Send it again to exit at once.`;
      // Said even with --quiet, which leaves warnings out: the user is waiting for an answer.
      if (settings.quiet) output.err(`${output.errorPalette.yellow("warning:")} ${text}\n`);
      else logger.warning(text);
    },
    onSecond: (signal) => output.err(`\n${signal} received again: exiting now.\n`),
  });
  // The HTTP client (undici) loads only for a run that calls GitBook or writes a review: a check
  // without a token has no use for it.
  const connection = config.token ? await import("./connection.ts") : undefined;
  // So do the change review's comparison (a preview's), and the re-run cache (a run given its file).
  const review = plan.changeReview ? await import("../../core/change-review/change-review.ts") : undefined;
  const memory = config.cacheFile === undefined ? undefined : (await import("../rerun-cache.ts")).rerunMemory;
  if (plan.review) await ci.loadReview();
  const report = await runSync(plan, {
    createService: connection
      ? (deadline) =>
          connection.createClient(config.apiUrl, config.token ?? "", {
            deadline,
            logger,
            tuning: { retry: timing.retry },
          })
      : undefined,
    openReview: (deadline) => redactedReview(ci.openReview(config, logger, deadline), redact),
    clock: timing.clock ?? systemClock,
    polling: timing.polling,
    logger,
    progress,
    comparer: review?.changeComparer(config.reviewBudget),
    git: commandLineGit,
    stop: listening.stop,
    memory: memory?.(config, {
      mode,
      onReview: ci.review !== undefined,
      folder: settings.cwd ?? settings.workspace,
      setting: settings.settingName("cache-file"),
      logger,
    }),
  }).finally(() => listening.dispose());
  printReport(report, output, { filesSet: config.files !== undefined, quiet: settings.quiet });
  const results = report.results;
  const finished = part ? { json: false, junitFile: undefined, codeQualityFile: undefined } : settings;
  const code = await finishSync(results, finished, output, {
    logged,
    removedSpecs: report.changeReview?.removedSpecs,
  });
  if (report.stoppedReason !== undefined) return { code: stopExitCode(report.stoppedBy), results };
  if (report.slugCollisions) return { code: ExitCode.usage, results };
  if ((report.changeReview?.failure || report.pruneFailure) && code === ExitCode.ok)
    return { code: ExitCode.failed, results };
  return { code: refusedByService(results) ? ExitCode.refused : code, results };
}

/**
 * The run's end on stderr: one line per spec (its status painted), then why it failed, if it did, or
 * one line with the time and the counts. `quiet` keeps only the last part.
 */
function printReport(
  report: SyncReport,
  output: Output,
  options: { filesSet: boolean; quiet: boolean },
): void {
  const palette = output.errorPalette;
  // A run GitBook refused (the token, the organization) says so alone: no spec was planned or started.
  if (!options.quiet && !isRefusal(report.stoppedBy)) printSpecLines(report, output, palette);
  const failure = runFailureMessage({
    stoppedReason: report.stoppedReason,
    collisions: report.slugCollisions && describeCollisionsForCli(report.slugCollisions, options.filesSet),
    results: report.results,
    pruneFailure: report.pruneFailure,
    reviewFailure: report.changeReview?.failure,
  });
  // A run that stopped says why as the command's error; failed specs are the run's own outcome.
  if (report.stoppedBy instanceof Interrupted) {
    // The specs that failed before the stop, with their reasons; those not started are only counted.
    const failed = finalFailureMessage(report.results);
    if (failed) output.err(`${printable(failed, true)}\n`);
    output.err(
      `${palette.red(`gitbook-openapi: ${report.stoppedBy.message}:`)} ${partialCounts(report.results)}.\n`,
    );
  } else if (report.stoppedReason !== undefined)
    output.err(`${palette.red("gitbook-openapi: error:")} ${printable(failure ?? "", true)}\n`);
  else if (failure) output.err(`${printable(failure, true)}\n`);
  else
    output.err(
      `Done in ${(report.durationMs / 1000).toFixed(1)} s (mode ${report.mode}): ${printable(headline({ results: report.results }))}.\n`,
    );
}

function printSpecLines(report: SyncReport, output: Output, palette: Palette): void {
  for (const result of report.results) {
    const link = result.versionUrl ?? result.appUrl ?? "";
    const line = `${statusLabel(result.status)}  ${result.file || "(recorded)"} → ${result.slug}`;
    const printed = printable(link ? `${line}  ${link}` : line);
    // The label's word, painted: the text is the same with or without colours.
    output.err(`${printed.replace(result.status, (word) => statusPaint(palette, word)(word))}\n`);
  }
  for (const result of report.results) {
    if (!result.changes) continue;
    output.err(
      `${printable(`API changes in ${result.file} (against the ${result.changes.against}): ${changesHeadline(result.changes)}`)}\n`,
    );
    for (const change of result.changes.breaking) {
      const place = change.file === undefined ? "" : `${printable(sourcePlace(change))}: `;
      output.err(`  ${place}${palette.yellow("breaking:")} ${printable(specChangeLine(change))}\n`);
    }
  }
  for (const file of report.changeReview?.removedSpecs ?? [])
    output.err(`${palette.yellow("Removed spec (breaking):")} ${printable(file)}\n`);
}

/**
 * On a pull or merge request, the settings with the base commit's configuration file for what the
 * request must not steer, and the head's for the rest of a preview (src/settings/pull-request-config.ts).
 */
async function reviewSettings(
  settings: SyncSettings,
  ci: CiRun,
): Promise<{ settings: SyncSettings; warnings: readonly string[] }> {
  if (ci.review === undefined) return { settings, warnings: [] };
  return settingsOfReview(settings, settings.readInput("base-commit") || ci.baseCommit);
}

/**
 * The settings of a review based on `commit`: what the pull or merge request must not steer (the
 * allow-list, fail-on-breaking…) from the configuration file as that commit has it, the rest from the
 * head's. `diff --base` reads them so, to say what the review will.
 */
export async function settingsOfReview(
  settings: SyncSettings,
  commit: string | undefined,
): Promise<{ settings: SyncSettings; warnings: readonly string[] }> {
  const config = settings.config;
  if (config === undefined) return { settings, warnings: [] };
  const { pullRequestConfig, readBaseConfig } = await import("../../settings/pull-request-config.ts");
  const { fileName, base } = await readBaseConfig(commandLineGit, {
    folder: config.folder,
    commit,
    named: config.named,
  });
  const review = pullRequestConfig({
    head: config.head,
    base,
    fileName,
    readInput: config.withFiles([]).readInput,
  });
  return { settings: config.withFiles(review.files), warnings: review.warnings };
}

function readCi(env: Env, settings: SyncSettings): CiRun {
  try {
    return readCiRun(
      env,
      settings.workspace,
      settings.mergeRequest,
      asksOrigin(settings) ? undefined : noOrigin,
    );
  } catch (error) {
    if (error instanceof GitLabContextError)
      throw new UsageError(error.variable, error.message.slice(error.variable.length + 2));
    if (error instanceof EventPayloadError) throw new UsageError("GITHUB_EVENT_PATH", error.message);
    if (error instanceof BitbucketContextError)
      throw new UsageError(error.variable, error.message.slice(error.variable.length + 2));
    throw error;
  }
}

const noOrigin = () => undefined;

/**
 * Whether the run asks git for the `origin` remote, where no CI variable names the repository: a run with
 * a token puts the repository's identity into publish records and proves records by it, and any run
 * names a spec at the workspace's root (`openapi.yaml`) after the repository. Otherwise the answer would
 * go unused: a check of specs in folders starts no git for it.
 */
function asksOrigin(settings: SyncSettings): boolean {
  if (settings.readInput("token")) return true;
  try {
    return readdirSync(settings.workspace, { withFileTypes: true }).some(
      (entry) => !entry.isDirectory() && entry.name !== ".git" && namedAfterRepository(entry.name),
    );
  } catch {
    return true;
  }
}

/** The run's mode (core/plan/mode.ts) on the CI's pull or merge request, if any. */
function resolveCliMode(requested: RequestedMode | "cleanup", ci: CiRun, settings: SyncSettings): SyncMode {
  return resolveMode(
    requested,
    ci.review,
    (mode) =>
      new UsageError(
        settings.settingName("mode"),
        `'${mode}' needs the pull or merge request: pass --merge-request IID (in a GitLab merge-request pipeline it is read from CI_MERGE_REQUEST_IID, in a Bitbucket pull request pipeline from BITBUCKET_PR_ID, in Azure Pipelines from SYSTEM_PULLREQUEST_PULLREQUESTID; in Bitbucket and Azure Pipelines, cleanup without one sweeps every closed pull request).`,
      ),
  );
}

function stopExitCode(error: unknown): number {
  if (error instanceof Interrupted) return error.exitCode;
  if (isRefusal(error)) return ExitCode.refused;
  const inputProblems = [InputError, UsageError, SlugInputError, DiscoveryError, OrganizationLookupError];
  return inputProblems.some((kind) => error instanceof kind) ? ExitCode.usage : ExitCode.failed;
}

function isRefusal(error: unknown): boolean {
  return (
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError ||
    error instanceof UnknownOrganizationError
  );
}

/** Every failure is the service refusing the token or the organization (401/403). */
function refusedByService(results: readonly SpecResult[]): boolean {
  const failed = results.filter(isFailure);
  return (
    failed.length > 0 &&
    failed.every((result) => result.errorCode === "HTTP_401" || result.errorCode === "HTTP_403")
  );
}

/** `inner`, recording each error and warning logged at a place into `found`. */
function recordingFindings(inner: Logger, found: LoggedFinding[]): Logger {
  const record = (level: LoggedFinding["level"]) => (message: string, location?: SourceLocation) => {
    if (location) found.push({ level, message, location });
    inner[level](message, location);
  };
  return { ...inner, warning: record("warning"), error: record("error") };
}
