/**
 * `sync --mode cleanup` without a pull request, in a CI with no close event (a scheduled Bitbucket
 * pipeline): lists the organization's previews, asks the review host which of their pull requests are
 * closed (core/previews/sweep.ts), and cleans each closed one up as `--merge-request N` does. The
 * results of every part are written once (`--json`, `--junit`); the worst exit code wins.
 */
import { GitBookClient } from "../../adapters/gitbook/index.ts";
import { RETRIES_WITHIN_DEADLINE } from "../../adapters/http/retry.ts";
import { sweepClosedPullRequests } from "../../core/previews/sweep.ts";
import type { SpecResult } from "../../core/result.ts";
import { listAllSpecs } from "../../core/run/first-contact.ts";
import { resolveOrganizationId } from "../../core/run/organization.ts";
import { readConfig } from "../../settings/inputs.ts";
import type { CiRun } from "./ci.ts";
import { UsageError } from "./errors.ts";
import { ExitCode } from "./exit-codes.ts";
import { checkInputs } from "./input-errors.ts";
import { createCliLog } from "./log.ts";
import type { Output } from "./output.ts";
import type { Env } from "./streams.ts";
import { CLI_TOKEN_HINT, finishSync } from "./sync.ts";
import type { SyncSettings } from "./sync-settings.ts";
import { CLI_USER_AGENT } from "./version.ts";

/** The cleanup of one pull request, as `sync --mode cleanup --merge-request N` runs it. */
export type CleanUpOne = (number: number) => Promise<{ code: number; results: readonly SpecResult[] }>;

export async function runCleanupSweep(
  settings: SyncSettings,
  output: Output,
  env: Env,
  ci: CiRun,
  cleanUpOne: CleanUpOne,
): Promise<number> {
  const readInput = (name: string) => (name === "mode" ? "publish" : settings.readInput(name));
  const config = checkInputs(
    () => readConfig(readInput, { tokenHint: CLI_TOKEN_HINT }),
    settings.settingName,
  );
  const { logger } = createCliLog(output, {
    gitlabSections: false,
    debug: /^(1|true)$/i.test(env.GITBOOK_DEBUG ?? ""),
    liveColumns: undefined,
    quiet: settings.quiet,
    palette: output.errorPalette,
  });
  const deadline = Date.now() + config.timeoutSeconds * 1000;
  const states = ci.pullRequestStates?.(deadline);
  if (!states) {
    throw new UsageError(
      "BITBUCKET_TOKEN",
      "cleanup without --merge-request asks Bitbucket which pull requests are closed, with a repository access token (Pull requests: Write) in the secured variable BITBUCKET_TOKEN; it is not set.",
    );
  }
  if (!config.token || !config.organization)
    throw new UsageError(settings.settingName("token"), CLI_TOKEN_HINT);
  const client = new GitBookClient({
    token: config.token,
    baseUrl: config.apiUrl,
    userAgent: CLI_USER_AGENT,
    deadline,
    retry: { maxRetries: RETRIES_WITHIN_DEADLINE },
  });
  let slugs: string[];
  try {
    const orgId = await resolveOrganizationId(config.organization, client, (name) =>
      settings.settingName(name),
    );
    slugs = (await listAllSpecs(client, orgId)).map((spec) => spec.slug);
  } finally {
    await client.close();
  }
  let worst: number = ExitCode.ok;
  const outcome = await sweepClosedPullRequests({
    slugs,
    prefix: config.slugPrefix ?? "",
    states,
    logger,
    cleanUp: async (number) => {
      const { code, results } = await cleanUpOne(number);
      if (worst === ExitCode.ok) worst = code;
      return [...results];
    },
  });
  const code = await finishSync(outcome.results, settings, output);
  output.err(
    `Cleanup sweep done: ${outcome.closed.length} closed pull request(s) cleaned up${outcome.closed.length ? ` (#${outcome.closed.join(", #")})` : ""}, ${outcome.open.length} open, ${outcome.unknown.length} unknown (kept).\n`,
  );
  return worst !== ExitCode.ok ? worst : code;
}
