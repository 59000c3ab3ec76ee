/**
 * `gitbook-openapi bundle <file> [-o <out>] [--audience <name>]`: the exact text `sync` would upload for
 * one spec file of the workspace (bundled when split, shaped by its overlays and remove-internal, with
 * its publish record), through the same local steps (`prepareFile`) and the same settings (slug prefix
 * and repository, from flags, variables and the configuration file), so that a user sees what GitBook
 * receives. A file published as several audiences needs `--audience`. Nothing is sent.
 */

import path from "node:path";
import { commandLineGit } from "../../adapters/git/base-tree.ts";
import { inspectFile } from "../../core/discovery/index.ts";
import { type Logger, type SourceLocation, silentLogger } from "../../core/logger.ts";
import { ownerKey } from "../../core/ownership/ownership.ts";
import { prepareFile } from "../../core/prepare/prepare.ts";
import { locatedMessage } from "../../core/prepare/problem-text.ts";
import { publicationSlug } from "../../core/run/targets.ts";
import { type SpecShaping, stepsOf } from "../../core/shaping/publish-targets.ts";
import { readConfig } from "../../settings/inputs.ts";
import { readCiRun, runCommit } from "./ci.ts";
import { UsageError } from "./errors.ts";
import { ExitCode } from "./exit-codes.ts";
import { checkInputs } from "./input-errors.ts";
import { type CliIo, type Output, printableLine } from "./output.ts";
import { checkOutputFile, writeOutputFile } from "./output-file.ts";
import { buildSyncSettings, type SyncFlags } from "./sync-settings.ts";
import { workspacePath } from "./workspace-file.ts";

export interface BundleFlags {
  output?: string;
  workspace?: string;
  slugPrefix?: string;
  config?: string;
  /** One of the file's audiences (configuration file, `specs:`). */
  audience?: string;
}

export async function runBundleCommand(
  file: string,
  flags: BundleFlags,
  io: CliIo,
  output: Output,
): Promise<number> {
  const syncFlags: SyncFlags = {
    ...(flags.workspace ? { workspace: flags.workspace } : {}),
    ...(flags.slugPrefix ? { slugPrefix: flags.slugPrefix } : {}),
    ...(flags.config ? { config: flags.config } : {}),
  };
  const outputFile = flags.output === undefined ? undefined : path.resolve(io.cwd, flags.output);
  if (outputFile !== undefined) checkOutputFile("--output", outputFile);
  const settings = buildSyncSettings(syncFlags, io.env, { cwd: io.cwd });
  // The settings a text upload depends on; `mode: check` so that no token is asked for.
  const config = checkInputs(
    () => readConfig((name) => (name === "mode" ? "check" : settings.readInput(name))),
    settings.settingName,
  );
  const relative = workspacePath(settings.workspace, io.cwd, file, "<file>");
  const inspection = await inspectFile(settings.workspace, relative);
  if (inspection.kind !== "spec" && inspection.kind !== "broken") {
    const reason = "reason" in inspection ? `: ${inspection.reason}` : "";
    throw new UsageError("<file>", `${file} is not an OpenAPI document sync would publish${reason}.`);
  }
  const steps = bundleSteps(relative, config.shaping?.get(relative), flags.audience);
  const ci = readCiRun(io.env, settings.workspace, undefined);
  const where = { workspace: settings.workspace, repositoryName: ci.repository.name, git: commandLineGit };
  const prepared = await prepareFile(
    inspection.kind === "spec" ? inspection.spec : inspection.broken,
    await publicationSlug(config, where, relative, flags.audience),
    {
      workspace: settings.workspace,
      sourceUrlFor: undefined,
      owner: ownerKey({ repository: ci.repository.identity, slugPrefix: config.slugPrefix }),
      commit: await runCommit(io.env, ci, settings.workspace),
      shaping: steps,
      strict: config.strict,
    },
    warningsTo(output),
  );
  const source = prepared.source;
  if (prepared.problems.length > 0 || source === undefined || !("text" in source)) {
    for (const problem of prepared.problems) output.err(printableLine(locatedMessage(problem)));
    return ExitCode.failed;
  }
  if (outputFile === undefined) output.out(source.text);
  else await writeOutputFile("--output", outputFile, source.text);
  return ExitCode.ok;
}

/** The steps of the publication `bundle` writes: the file's, or its audience's. */
function bundleSteps(file: string, shaping: SpecShaping | undefined, audience: string | undefined) {
  const audiences = shaping?.audiences ?? [];
  if (audience === undefined) {
    if (audiences.length > 0)
      throw new UsageError(
        "--audience",
        `${file} is published as ${audiences.length} audiences (${audiences.map((a) => a.name).join(", ")}); name one with --audience.`,
      );
    return stepsOf(shaping);
  }
  const chosen = audiences.find((entry) => entry.name === audience);
  if (chosen === undefined)
    throw new UsageError(
      "--audience",
      audiences.length === 0
        ? `${file} has no audiences in the configuration file.`
        : `${file} has no audience '${audience}'; its audiences are: ${audiences.map((a) => a.name).join(", ")}.`,
    );
  return stepsOf(shaping, chosen);
}

/** What a shaping step warns about (an overlay action that selects nothing), on stderr at its place. */
function warningsTo(output: Output): Logger {
  const write = (message: string, location?: SourceLocation) => {
    const at = location ? `${location.file}${location.line === undefined ? "" : `:${location.line}`}: ` : "";
    output.err(printableLine(`warning: ${at}${message}`));
  };
  return { ...silentLogger, warning: write, error: write };
}
