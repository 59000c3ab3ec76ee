import { readConfig } from "../config/inputs.ts";
import { discoverSpecs } from "../discovery/index.ts";
import { readRunContext } from "../github/context.ts";
import type { Logger } from "../logger.ts";
import { finalFailureMessage, renderOutputs } from "../report/outputs.ts";
import { renderJobSummary } from "../report/summary.ts";
import { isPreviewSlugOf, repositoryNameFrom } from "../slugs/index.ts";
import { checkAll } from "../sync/check.ts";
import { deletePreviews, type PreviewToDelete } from "../sync/cleanup.ts";
import { limitConcurrency } from "../sync/limit.ts";
import { DEFAULT_POLL_SCHEDULE } from "../sync/poll-schedule.ts";
import type { Clock } from "../sync/ports.ts";
import { systemClock } from "../sync/ports.ts";
import { assignRunSlugs, prepareSpecs } from "../sync/prepare.ts";
import type { PreparedSpec } from "../sync/prepared.ts";
import { formatDuration, publishAll } from "../sync/publish.ts";
import type { SpecResult } from "../sync/result.ts";
import { stoppedRunResults } from "../sync/stopped.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { createRedactor, type Redact, redactStrings } from "../text/redact.ts";
import type { ActionHost } from "./host.ts";
import type { EffectiveMode } from "./mode.ts";
import { resolveMode } from "./mode.ts";
import { resolveOrganizationId } from "./organization.ts";
import type { PullRequestComments } from "./pull-request-comment.ts";
import { createPullRequestComments } from "./pull-request-comment.ts";
import type { ServiceFactory } from "./service.ts";
import { createGitBookService } from "./service.ts";
import { rawFileUrlBuilder } from "./source-url.ts";

export interface RunDependencies {
  createService: ServiceFactory;
  createComments: typeof createPullRequestComments;
  clock: Clock;
}

/** How long GitHub calls may go on after the run's deadline, to put the results in the comment. */
const COMMENT_GRACE_MS = 10_000;

const defaultDependencies: RunDependencies = {
  createService: createGitBookService,
  createComments: createPullRequestComments,
  clock: systemClock,
};

/** The whole action: inputs → discover → slug → validate → bundle → publish → report. */
export async function runAction(
  host: ActionHost,
  deps: RunDependencies = defaultDependencies,
): Promise<void> {
  // Before anything else: both tokens are masked by the runner and redacted (whole or in pieces) from
  // every text that came from outside, before it is shown or cut.
  const secrets = [host.readInput("token"), host.readInput("github-token")].filter((secret) => secret);
  for (const secret of secrets) host.setSecret(secret);
  const redact = createRedactor(secrets);
  const progress: RunProgress = { started: deps.clock.now(), mode: undefined, slugsByFile: new Map() };
  try {
    await runSteps(host, deps, redact, progress);
  } catch (error) {
    // Stopped before any upload: the outputs and the summary still say what happened to each spec.
    await finish(host, {
      mode: progress.mode,
      orgId: undefined,
      results: stoppedRunResults(progress.slugsByFile, error),
      started: progress.started,
      deps,
      redact,
      stoppedReason: error instanceof Error ? error.message : String(error),
    });
  }
}

/** What the run knew when it stopped, for the outputs and summary of a run that failed early. */
interface RunProgress {
  started: number;
  mode: EffectiveMode | undefined;
  /** Every file discovered, with its slug once slugs are assigned ("" before). */
  slugsByFile: Map<string, string>;
}

async function runSteps(
  host: ActionHost,
  deps: RunDependencies,
  redact: Redact,
  progress: RunProgress,
): Promise<void> {
  const { logger } = host;
  const { started } = progress;
  const timings: string[] = [];
  const timed = async <T>(label: string, step: () => Promise<T>): Promise<T> => {
    const at = deps.clock.now();
    const value = await step();
    timings.push(`${label} ${formatDuration(deps.clock.now() - at)}`);
    return value;
  };

  const context = readRunContext(host.env, host.readFile);
  const config = readConfig(host.readInput, { tokenOptional: context.pullRequest?.isFork === true });
  const mode = resolveMode(config.mode, context);
  progress.mode = mode;
  if (!config.token && mode !== "check") {
    const reason = forkSkipReason(context.pullRequest?.number);
    logger.notice(reason);
    await finish(host, {
      mode,
      orgId: undefined,
      results: [],
      started,
      deps,
      redact,
      skippedReason: reason,
    });
    return;
  }
  const pullRequestNumber =
    mode === "preview" || mode === "cleanup" ? context.pullRequest?.number : undefined;
  const slugOptions = {
    slugMapping: config.slugMapping,
    slugPrefix: config.slugPrefix,
    filePatterns: config.files,
    repositoryName: repositoryNameFrom(host.env, context.workspace),
    pullRequestNumber,
  };

  const discovery = await timed("discovery", () =>
    discoverSpecs({
      workspace: context.workspace,
      ...(config.files ? { patterns: config.files } : {}),
      logger,
    }),
  );
  for (const spec of [...discovery.specs, ...discovery.broken]) progress.slugsByFile.set(spec.path, "");
  const slugs = assignRunSlugs(discovery, slugOptions);
  for (const [file, slug] of slugs) progress.slugsByFile.set(file, slug);
  // A closed pull request only needs the slugs of its previews: nothing is validated or bundled.
  const derivedPreviews = mode === "cleanup" ? [...slugs] : [];
  const prepared =
    mode === "cleanup"
      ? []
      : await timed("validation and bundling", () =>
          prepareSpecs(discovery, {
            ...slugOptions,
            workspace: context.workspace,
            sourceUrlFor: config.source === "url" ? rawFileUrlBuilder(context) : undefined,
            logger,
          }),
        );
  if (prepared.length === 0 && mode !== "cleanup") throw noSpecsError(context.workspace, config.files);
  logPlan(logger, mode, prepared);

  // One deadline for the whole network phase: every GitBook request, retry and wait ends by it; GitHub
  // calls (the comment, best-effort) get a few seconds more to report the results.
  const deadline = deps.clock.now() + config.timeoutSeconds * 1000;
  const client = config.token ? deps.createService(config, logger, { deadline }) : undefined;
  try {
    const service = client && limitConcurrency(client, config.concurrency);
    const orgId =
      client && config.organization ? await resolveOrganizationId(config.organization, client) : undefined;
    const comments =
      context.pullRequest && config.comment
        ? deps.createComments(config, context, logger, { deadline: deadline + COMMENT_GRACE_MS })
        : undefined;

    let results: SpecResult[];
    if (mode === "check" || !service || !orgId) {
      results = await timed("checks", () =>
        checkAll(prepared, { lookup: service && orgId ? { orgId, service } : undefined, logger }),
      );
    } else if (mode === "cleanup") {
      const recorded = (await comments?.recordedPreviews()) ?? [];
      const previews = previewsToDelete(derivedPreviews, recorded, pullRequestNumber, logger);
      logger.group(
        `Plan (cleanup): delete ${previews.length} preview${previews.length === 1 ? "" : "s"}`,
        () => {
          for (const preview of previews) logger.info(escapeUntrusted(preview.slug));
        },
      );
      results = await timed("cleanup", () => deletePreviews(previews, { orgId, service, logger }));
    } else {
      results = await timed("publishing", () =>
        publishAll(prepared, {
          orgId,
          service,
          clock: deps.clock,
          schedule: DEFAULT_POLL_SCHEDULE,
          wait: config.wait,
          deadline,
          logger,
        }),
      );
    }

    await finish(host, { mode, orgId, results, started, deps, redact, comments });
    logger.info(`Timings: ${timings.join(", ")}; total ${formatDuration(deps.clock.now() - started)}.`);
  } finally {
    await client?.close();
  }
}

function forkSkipReason(pullRequestNumber: number | undefined): string {
  return `Pull request #${pullRequestNumber} comes from a fork, and GitHub gives workflows of fork pull requests no secrets, so there is no GitBook token: publishing the preview is skipped. Run with 'mode: check' to validate fork pull requests, or publish after merging.`;
}

function noSpecsError(workspace: string, files: readonly string[] | undefined): Error {
  const where = files
    ? `the 'files' input (${files.join(", ")}) matched no OpenAPI document`
    : `no OpenAPI document was found in ${workspace}`;
  return new Error(
    `Nothing to publish: ${where}. Check that the workflow checks out the repository (actions/checkout) before this step, and that each spec has a top-level \`openapi: "3.x"\` or \`swagger: "2.0"\`; set 'files' to your specs' paths or globs if they live elsewhere.`,
  );
}

function logPlan(logger: Logger, mode: EffectiveMode, prepared: readonly PreparedSpec[]): void {
  if (prepared.length === 0) return;
  const invalid = prepared.filter((spec) => spec.problems.length > 0).length;
  const bundled = prepared.filter((spec) => spec.bundledFiles).length;
  const counts = [
    `${prepared.length} spec${prepared.length === 1 ? "" : "s"}`,
    ...(bundled > 0 ? [`${bundled} bundled`] : []),
    ...(invalid > 0 ? [`${invalid} invalid`] : []),
  ];
  logger.group(`Plan (${mode}): ${counts.join(", ")}`, () => {
    for (const spec of prepared) logger.info(`${escapeUntrusted(spec.file)} → ${spec.slug}${planNote(spec)}`);
  });
}

function planNote(spec: PreparedSpec): string {
  if (spec.problems.length > 0) return " (invalid)";
  if (spec.bundledFiles) return ` (${spec.bundledFiles.length} files bundled)`;
  return "";
}

/**
 * The previews derivable from the files now (slug by file), then those only an earlier run recorded in
 * our own comment. Only this pull request's preview slugs are ever deleted: anything else a record names
 * is left alone, with a warning.
 */
function previewsToDelete(
  derived: readonly [string, string][],
  recorded: readonly string[],
  pullRequestNumber: number | undefined,
  logger: Logger,
): PreviewToDelete[] {
  if (pullRequestNumber === undefined) return [];
  const fileBySlug = new Map<string, string | undefined>(derived.map(([file, slug]) => [slug, file]));
  for (const slug of recorded) {
    if (fileBySlug.has(slug)) continue;
    if (isPreviewSlugOf(slug, pullRequestNumber)) fileBySlug.set(slug, undefined);
    else {
      logger.warning(
        `The pull request comment records ${JSON.stringify(escapeUntrusted(slug))}, which is not a preview slug of pull request #${pullRequestNumber} (…-pr-${pullRequestNumber}): it is not deleted.`,
      );
    }
  }
  return [...fileBySlug].map(([slug, file]) => ({ slug, file }));
}

interface FinishInput {
  /** Undefined when the run stopped before the mode was known (an input error). */
  mode: EffectiveMode | undefined;
  orgId: string | undefined;
  results: SpecResult[];
  started: number;
  deps: RunDependencies;
  /** Applied to every result before it is rendered (summary, outputs, comment) or cut. */
  redact: Redact;
  skippedReason?: string;
  /** Why the run stopped before any upload; it fails the job. */
  stoppedReason?: string;
  comments?: PullRequestComments | undefined;
}

async function finish(host: ActionHost, input: FinishInput): Promise<void> {
  const { mode } = input;
  const results = redactStrings(input.results, input.redact);
  const stoppedReason = input.stoppedReason && input.redact(input.stoppedReason);
  const outputs = renderOutputs(results);
  host.setOutput("results", outputs.results);
  host.setOutput("published", outputs.published);
  host.setOutput("failed", outputs.failed);
  if (mode) host.setOutput("mode", mode);

  await host.appendSummary(
    renderJobSummary({
      mode: mode ?? "unknown",
      organizationId: input.orgId,
      results,
      durationMs: input.deps.clock.now() - input.started,
      ...(input.skippedReason ? { skippedReason: input.skippedReason } : {}),
      ...(stoppedReason ? { stoppedReason } : {}),
    }),
  );

  if (input.comments && mode) {
    const url = await input.comments.publish({ mode, results });
    if (url) host.setOutput("comment-url", url);
  }

  const failure = stoppedReason ?? finalFailureMessage(results);
  if (failure) host.setFailed(failure);
}
