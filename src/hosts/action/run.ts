import { commandLineGit } from "../../adapters/git/base-tree.ts";
import { headCommit } from "../../adapters/git/commits.ts";
import { type RunContext, readRunContext } from "../../adapters/github/context.ts";
import { createPullRequestComments } from "../../adapters/github/pull-request-thread.ts";
import { blobLineLinks, rawFileUrlBuilder } from "../../adapters/github/source-url.ts";
import { changeComparer } from "../../core/change-review/change-review.ts";
import { planOf } from "../../core/plan/plan.ts";
import { reviewTarget } from "../../core/plan/review-target.ts";
import type { SettingNames } from "../../core/plan/settings.ts";
import type { Clock, Git, SyncPorts } from "../../core/ports.ts";
import { systemClock } from "../../core/ports.ts";
import { changeAnnotations } from "../../core/report/change-annotations.ts";
import { renderOutputs, runFailureMessage } from "../../core/report/outputs.ts";
import { partialCounts } from "../../core/report/status.ts";
import { renderJobSummary } from "../../core/report/summary.ts";
import { redactedReview } from "../../core/review-thread/redacted-review.ts";
import { runSync, type SyncReport } from "../../core/run/run.ts";
import { Interrupted, listenForStop, type SignalSource, STOP_GRACE_MS } from "../../core/run/stopped.ts";
import { createRedactor, type Redact, redactStrings } from "../../core/text/redact.ts";
import { type ConfigFile, readConfigFile } from "../../settings/config-file.ts";
import { readConfig } from "../../settings/inputs.ts";
import { pullRequestConfig, readBaseConfig } from "../../settings/pull-request-config.ts";
import { runRepository } from "../repository.ts";
import { rerunMemory } from "../rerun-cache.ts";
import type { ActionHost } from "./host.ts";
import { resolveMode } from "./mode.ts";
import type { ServiceFactory } from "./service.ts";
import { createGitBookService } from "./service.ts";

export interface RunDependencies {
  createService: ServiceFactory;
  createComments: typeof createPullRequestComments;
  clock: Clock;
  /** The Git port; the `git` command by default. */
  git?: Git;
  /** SIGINT and SIGTERM, sent by the runner when the job is cancelled; the process's in main.ts. */
  signals?: SignalSource;
  /** When a spec being processed is read again (SyncPorts.polling); the defaults unless given. */
  polling?: SyncPorts["polling"];
}

export const defaultDependencies: RunDependencies = {
  createService: createGitBookService,
  createComments: createPullRequestComments,
  clock: systemClock,
};

/** How the action's messages name a setting: by its input. */
export const inputNames: SettingNames = (setting) => `the '${setting}' input`;

/**
 * The GitHub Action, a host over the CI-neutral run: inputs and the event → a plan; the report →
 * outputs, job summary, the pull request comment and the step's verdict. Resolves to the exit code
 * the process must end with when a signal stopped the run (130 for SIGINT, 143 for SIGTERM): work
 * left under way at the stop would otherwise keep it alive.
 */
export async function runAction(
  host: ActionHost,
  deps: RunDependencies = defaultDependencies,
): Promise<number | undefined> {
  // A cancelled job: the runner sends SIGINT, then SIGTERM 7.5 s later, then kills the process tree
  // (docs/design/cancellation.md). The first signal stops the run; what it knows is still written.
  const listening = listenForStop(deps.signals, {
    onFirst: (signal) =>
      host.logger.warning(
        `${signal} received (the job is being cancelled): no other spec starts; the specs under way get ${STOP_GRACE_MS / 1000} s to end, then the results, the job summary and the comment are written.`,
      ),
    onSecond: (signal) => host.logger.warning(`${signal} received again: exiting now.`),
  });
  try {
    return await runListening(host, deps, listening.stop);
  } finally {
    listening.dispose();
  }
}

async function runListening(
  host: ActionHost,
  deps: RunDependencies,
  stop: AbortSignal,
): Promise<number | undefined> {
  // Before anything else: both tokens are masked by the runner and redacted (whole or in pieces) from
  // every text that came from outside, before it is shown or cut.
  const secrets = [host.readInput("token"), host.readInput("github-token")].filter((secret) => secret);
  for (const secret of secrets) host.setSecret(secret);
  const redact = createRedactor(secrets);
  const started = deps.clock.now();
  let report: SyncReport;
  try {
    const context = readRunContext(host.env, host.readFile);
    const files = await configFiles(host, context, deps.git ?? commandLineGit);
    const readInput = (name: string) =>
      host.readInput(name) || files.find((file) => file.values.has(name))?.values.get(name) || "";
    const config = readConfig(readInput, { tokenOptional: context.pullRequest?.isFork === true });
    const mode = resolveMode(config.mode, context);
    if (!config.token && mode !== "check") {
      const reason = forkSkipReason(context.pullRequest?.number);
      host.logger.notice(reason);
      return finish(host, redact, { mode, organizationId: undefined, results: [], durationMs: 0 }, reason);
    }
    const pullRequest = mode === "preview" || mode === "cleanup" ? context.pullRequest : undefined;
    // The action runs on GitHub Actions, whatever GITHUB_ACTIONS says.
    const repository = runRepository({ ...host.env, GITHUB_ACTIONS: "true" }, context.workspace);
    const plan = planOf(config, {
      workspace: context.workspace,
      mode,
      repositoryName: repository.name,
      repositoryNameGuess: repository.guessedName,
      repositoryIdentity: repository.identity,
      commit: /^[0-9a-f]{40,64}$/.test(context.sha) ? context.sha : await headCommit(context.workspace),
      review: pullRequest && reviewTarget({ number: pullRequest.number, kind: "pull-request" }),
      sourceUrlFor: config.source === "url" ? rawFileUrlBuilder(context) : undefined,
      lineLinks: blobLineLinks(context),
      baseCommit: pullRequest?.baseSha || undefined,
      names: (setting) => {
        const file = host.readInput(setting) ? undefined : files.find((f) => f.values.has(setting));
        return file ? `'${setting}' in ${file.file}` : inputNames(setting);
      },
    });
    report = await runSync(plan, {
      createService: config.token
        ? (deadline) => deps.createService(config, host.logger, { deadline })
        : undefined,
      openReview: (deadline) =>
        context.pullRequest && config.comment
          ? redactedReview(deps.createComments(config, context, host.logger, { deadline }), redact)
          : undefined,
      clock: deps.clock,
      polling: deps.polling,
      logger: host.logger,
      comparer: changeComparer(config.reviewBudget),
      git: deps.git ?? commandLineGit,
      stop,
      memory: rerunMemory(config, {
        mode,
        onReview: context.pullRequest !== undefined,
        folder: context.workspace,
        setting: plan.names("cache-file"),
        logger: host.logger,
      }),
    });
  } catch (error) {
    // Inputs or the event could not be read: the outputs and the summary still say why.
    report = {
      mode: "publish",
      organizationId: undefined,
      results: [],
      stoppedReason: error instanceof Error ? error.message : String(error),
      durationMs: deps.clock.now() - started,
    };
    return finish(host, redact, report, undefined, false);
  }
  return finish(host, redact, report);
}

/**
 * The configuration files the run reads, the first to hold a setting winning: the work tree's on a push;
 * on a pull request, the base commit's for what the pull request must not steer and the head's for the
 * rest of a preview (src/settings/pull-request-config.ts).
 */
async function configFiles(host: ActionHost, context: RunContext, git: Git): Promise<readonly ConfigFile[]> {
  const named = host.readInput("config") || undefined;
  const head = readConfigFile(context.workspace, named);
  let files: readonly ConfigFile[] = head ? [head] : [];
  if (context.pullRequest) {
    const { fileName, base } = await readBaseConfig(git, {
      folder: context.workspace,
      commit: context.pullRequest.baseSha || undefined,
      named,
    });
    const config = pullRequestConfig({ head, base, fileName, readInput: host.readInput });
    for (const warning of config.warnings) host.logger.warning(warning);
    files = config.files;
  }
  for (const file of files)
    host.logger.debug(`Settings from ${file.file}: ${[...file.values.keys()].join(", ")} (inputs win).`);
  return files;
}

function forkSkipReason(pullRequestNumber: number | undefined): string {
  return `Pull request #${pullRequestNumber} comes from a fork, and GitHub gives workflows of fork pull requests no secrets, so there is no GitBook token: publishing the preview is skipped. Run with 'mode: check' to validate fork pull requests, or publish after merging.`;
}

/** Each placed API change as an annotation at its file and line (errors for breaking ones). */
function annotateChanges(host: ActionHost, results: SyncReport["results"]): void {
  const { annotations, left } = changeAnnotations(results);
  for (const { level, message, location } of annotations) host.logger[level](message, location);
  if (left > 0)
    host.logger.info(
      `${left} more API change${left === 1 ? "" : "s"} not annotated: the job summary and the pull request comment list them.`,
    );
}

async function finish(
  host: ActionHost,
  redact: Redact,
  report: SyncReport,
  skippedReason?: string,
  modeKnown = true,
): Promise<number | undefined> {
  const results = redactStrings(report.results, redact);
  const interrupted = report.stoppedBy instanceof Interrupted ? report.stoppedBy : undefined;
  const stoppedReason = interrupted ? undefined : report.stoppedReason && redact(report.stoppedReason);
  const collisions = report.slugCollisions && redact(report.slugCollisions.message);
  const outputs = renderOutputs(results);
  host.setOutput("results", outputs.results);
  host.setOutput("published", outputs.published);
  host.setOutput("unchanged", outputs.unchanged);
  host.setOutput("failed", outputs.failed);
  if (modeKnown) host.setOutput("mode", report.mode);
  if (report.reviewUrl) host.setOutput("comment-url", report.reviewUrl);
  annotateChanges(host, results);

  await host.appendSummary(
    renderJobSummary({
      mode: modeKnown ? report.mode : "unknown",
      organizationId: report.organizationId,
      results,
      durationMs: report.durationMs,
      ...(skippedReason ? { skippedReason } : {}),
      ...(stoppedReason ? { stoppedReason } : {}),
      ...(interrupted ? { interrupted: interrupted.message } : {}),
      ...(collisions ? { slugCollisions: collisions } : {}),
      ...(report.changeReview ? { removedSpecs: report.changeReview.removedSpecs } : {}),
      ...(report.pruneFailure ? { pruneFailure: redact(report.pruneFailure) } : {}),
    }),
  );

  const pruneFailure = report.pruneFailure && redact(report.pruneFailure);
  if (interrupted) {
    const failures = runFailureMessage({ results, pruneFailure });
    const said = `${interrupted.message}: ${partialCounts(results)}.`;
    host.setFailed(failures ? `${said}\n\n${failures}` : said);
    return interrupted.exitCode;
  }
  const failure = runFailureMessage({
    stoppedReason,
    collisions,
    results,
    pruneFailure,
    reviewFailure: report.changeReview?.failure && redact(report.changeReview.failure),
  });
  if (failure) host.setFailed(failure);
  return undefined;
}
