/**
 * `gitbook-openapi diff --base <ref>`: the pull request review on a laptop. The run itself
 * (`runSync`, check mode, no service) reviews every spec of the workspace against the ref's commit:
 * the same discovery, slugs, bundling, shaping and verdicts as a preview's change review, with no
 * token and no network. This module only resolves the ref with git and prints the run's report.
 */
import { commandLineGit } from "../../adapters/git/base-tree.ts";
import { gitProblem, runGit } from "../../adapters/git/run-git.ts";
import { changeComparer } from "../../core/change-review/change-review.ts";
import { planOf } from "../../core/plan/plan.ts";
import { systemClock } from "../../core/ports.ts";
import { changesHeadline, groupByOperation } from "../../core/report/changes.ts";
import type { SpecChange, SpecChanges } from "../../core/result.ts";
import { runSync } from "../../core/run/run.ts";
import { chunked } from "../../core/text/json-pieces.ts";
import { readConfig } from "../../settings/inputs.ts";
import { runRepository } from "../repository.ts";
import { placedMessage } from "./diff.ts";
import { UsageError } from "./errors.ts";
import { ExitCode } from "./exit-codes.ts";
import { checkInputs } from "./input-errors.ts";
import { createCliLog } from "./log.ts";
import { type CliIo, type Output, printable, printableLine } from "./output.ts";
import { settingsOfReview } from "./sync.ts";
import { buildSyncSettings } from "./sync-settings.ts";

export interface DiffBaseFlags {
  base: string;
  json?: boolean;
  failOnBreaking?: boolean;
  failOnUnreviewed?: boolean;
  workspace?: string;
  config?: string;
}

/** One publication's review: a file, or one audience of it. */
export interface ReviewedSpec {
  file: string;
  slug: string;
  /** What it was compared with: "base commit", or "nothing" for a spec new since the ref. */
  against?: SpecChanges["against"];
  breaking: SpecChange[];
  other: SpecChange[];
  /** Breaking changes `breaking-allowed` accepts. */
  allowed: SpecChange[];
  omitted?: number;
  /** Why it was not reviewed: its comparison could not finish, or the spec fails its checks. */
  notReviewed?: string;
}

/** What `--json` prints with `--base`. */
export interface DiffBaseResult {
  base: { ref: string; commit: string };
  specs: ReviewedSpec[];
  /** Spec files the ref has and the workspace no longer has: each a breaking change. */
  removedSpecs: string[];
}

/** How long resolving the ref may take. */
const REV_PARSE_BUDGET_MS = 15_000;

/** Reviews the workspace's specs against `flags.base` and prints the review; the exit code. */
export async function runDiffBaseCommand(flags: DiffBaseFlags, io: CliIo, output: Output): Promise<number> {
  const given = buildSyncSettings(
    {
      ...(flags.workspace ? { workspace: flags.workspace } : {}),
      ...(flags.config ? { config: flags.config } : {}),
    },
    io.env,
    { cwd: io.cwd },
  );
  const commit = await resolveRef(given.workspace, flags.base);
  // As on the pull request: what it must not steer comes from the configuration file at the base.
  const { settings, warnings } = await settingsOfReview(given, commit);
  for (const warning of warnings)
    output.err(`${output.errorPalette.yellow("warning:")} ${printable(warning)}\n`);
  // Check mode: nothing is sent, so no token, organization or network is needed.
  const readInput = (name: string) => (name === "mode" ? "check" : settings.readInput(name));
  const config = checkInputs(() => readConfig(readInput, { tokenOptional: true }), settings.settingName);
  const repository = runRepository(io.env, settings.workspace);
  const plan = planOf(
    { ...config, token: undefined },
    {
      workspace: settings.workspace,
      mode: "check",
      repositoryName: repository.name,
      repositoryIdentity: repository.identity,
      review: undefined,
      sourceUrlFor: undefined,
      baseCommit: commit,
      names: (setting) => settings.settingName(setting),
    },
  );
  const { logger } = createCliLog(output, {
    gitlabSections: false,
    debug: /^(1|true)$/i.test(io.env.GITBOOK_DEBUG ?? ""),
    liveColumns: undefined,
    quiet: true,
    palette: output.errorPalette,
  });
  const report = await runSync(
    {
      ...plan,
      prune: undefined,
      changeReview: {
        baseCommit: commit,
        failOnBreaking: flags.failOnBreaking === true || config.failOnBreaking,
        failOnUnreviewed: flags.failOnUnreviewed === true || config.failOnUnreviewed,
        allowed: config.breakingAllowed,
      },
    },
    {
      createService: undefined,
      clock: systemClock,
      logger,
      comparer: changeComparer(config.reviewBudget),
      git: commandLineGit,
    },
  );
  if (report.stoppedReason !== undefined) throw new Error(report.stoppedReason);
  const result: DiffBaseResult = {
    base: { ref: flags.base, commit },
    specs: report.results.map((spec) => ({
      file: spec.file,
      slug: spec.slug,
      ...(spec.changes ? { against: spec.changes.against } : {}),
      breaking: spec.changes?.breaking ?? [],
      other: spec.changes?.other ?? [],
      allowed: spec.changes?.allowed ?? [],
      ...(spec.changes?.omitted ? { omitted: spec.changes.omitted } : {}),
      ...(spec.changes?.notReviewed !== undefined
        ? { notReviewed: spec.changes.notReviewed }
        : spec.changes === undefined && spec.status === "failed"
          ? { notReviewed: `it fails its checks: ${(spec.errors ?? []).join("; ")}` }
          : {}),
    })),
    removedSpecs: report.changeReview?.removedSpecs ?? [],
  };
  if (flags.json) await output.json(result);
  else await output.outChunks(chunked(diffBaseLines(result)));
  // The run has said why it fails (its logger's error): the review's verdict, as on the pull request.
  return report.changeReview?.failure ? ExitCode.failed : ExitCode.ok;
}

/**
 * The review for a terminal: per spec, what it was compared with and the counts, then its breaking
 * and other changes grouped by operation; the removed specs last. Text from the documents is printed
 * with control characters escaped.
 */
export function renderDiffBase(result: DiffBaseResult): string {
  return [...diffBaseLines(result)].join("");
}

/** {@link renderDiffBase} a line at a time, each ended: a large review is written in pieces. */
function* diffBaseLines(result: DiffBaseResult): Generator<string> {
  yield printableLine(`API changes against ${result.base.ref} (${result.base.commit.slice(0, 12)}):`);
  for (const spec of result.specs) {
    const name = spec.file === spec.slug ? spec.file : `${spec.file} → ${spec.slug}`;
    yield "\n";
    if (spec.notReviewed !== undefined) {
      yield printableLine(`${name}: not reviewed: ${spec.notReviewed}`);
      continue;
    }
    if (spec.against === "nothing") {
      yield printableLine(`${name}: new spec.`);
      continue;
    }
    if (spec.breaking.length + spec.other.length + spec.allowed.length === 0) {
      yield printableLine(`${name}: no API changes.`);
      continue;
    }
    yield printableLine(`${name}: ${changesHeadline({ against: "base commit", ...spec })}`);
    for (const [title, changes] of [
      ["Breaking changes", spec.breaking],
      ["Breaking changes allowed (breaking-allowed)", spec.allowed],
      ["Other changes", spec.other],
    ] as const) {
      if (changes.length === 0) continue;
      yield printableLine(`  ${title}:`);
      for (const group of groupByOperation(changes)) {
        const place = group.operation ?? "The whole document";
        yield printableLine(
          `    ${place}${group.operationId === undefined ? "" : ` (${group.operationId})`}`,
        );
        for (const change of group.changes) yield printableLine(`      - ${placedMessage(change)}`);
      }
    }
  }
  for (const file of result.removedSpecs) yield `\n${printableLine(`${file}: removed spec (breaking).`)}`;
}

/**
 * The ref's commit, as git resolves it in the workspace; an unknown ref is a usage error that names it
 * and says how to fetch it.
 */
async function resolveRef(workspace: string, ref: string): Promise<string> {
  if (ref.startsWith("-")) throw new UsageError("--base", `'${ref}' is not a git ref.`);
  const run = await runGit(workspace, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
    deadline: Date.now() + REV_PARSE_BUDGET_MS,
    maxStdout: 1024,
  });
  const commit = run.stdout.toString("utf8").trim();
  if (run.code === 0 && /^[0-9a-f]{40,64}$/.test(commit)) return commit;
  if (run.code === undefined)
    throw new UsageError("--base", `git could not resolve '${ref}': ${gitProblem(run)}.`);
  if (/not a git repository/i.test(run.stderr))
    throw new UsageError(
      "--base",
      `${workspace} is not in a git repository: diff --base compares its specs with a commit of one (diff <base> <head> compares two files).`,
    );
  throw new UsageError(
    "--base",
    `'${ref}' is not a commit of the repository at ${workspace}. If it is a branch or tag of the remote, fetch it first (git fetch origin ${ref.replace(/^origin\//, "")}), or name a commit this checkout has.`,
  );
}
