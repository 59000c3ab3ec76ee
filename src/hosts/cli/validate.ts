/**
 * `gitbook-openapi validate [files...]`: every local check `sync` runs before an upload (syntax, the
 * official OpenAPI schema, `info`, `$ref`s through bundling), on the given files or on what `sync`
 * would discover, with no token and nothing sent. One `file:line:col: message` line per problem on
 * stdout (warnings say `warning:`), a count last; exit 0 when every file is valid, 1 otherwise.
 * The checks load when the command runs: `--help` and the other commands do not pay for them.
 */

import type { Command } from "commander";
import type { Logger, SourceLocation } from "../../core/logger.ts";
import { UsageError } from "./errors.ts";
import { ExitCode } from "./exit-codes.ts";
import { type CliIo, type Output, printableLine } from "./output.ts";
import type { SyncFlags } from "./sync-settings.ts";

export interface ValidateFlags {
  json?: boolean;
  workspace?: string;
  config?: string;
}

export const VALIDATE_EXIT_CODES_HELP = `Exit codes:
  0  every file is valid (warnings aside)
  1  one or more files have a problem that would stop their upload (each is printed)
  2  usage or input error: a file outside the workspace or not an OpenAPI document, a bad setting`;

const HELP = `
Runs the checks sync runs before uploading a spec: YAML/JSON syntax, the official OpenAPI schema of the
document's version (2.0, 3.0, 3.1, 3.2), info.title and info.version, and every $ref (a split spec is
bundled). Nothing is sent and no token is needed. Without files, the specs sync would publish are found
as sync finds them (files, exclude and the configuration file apply).

Every finding is an error here, as sync reports it with strict: true. By default sync refuses a spec
only for what GitBook cannot take (a syntax error, a $ref that cannot be resolved, no info.title or
info.version) and publishes it with the other findings as warnings.

Examples:
  $ gitbook-openapi validate                        # every spec of the current folder
  $ gitbook-openapi validate api/openapi.yaml
  $ gitbook-openapi validate --json | jq '.problems[] | select(.severity == "error")'

${VALIDATE_EXIT_CODES_HELP}`;

/** One problem or warning, as `--json` prints it. */
interface Problem {
  severity: "error" | "warning" | "notice";
  file: string;
  line?: number;
  column?: number;
  message: string;
  /** The line that counts a file's problems left out of its list ("and N more"): how many. Not printed in JSON. */
  more?: number;
}

export function addValidateCommand(
  program: Command,
  io: CliIo,
  output: Output,
  state: { exitCode: number },
): void {
  program
    .command("validate")
    .description("check OpenAPI files as sync does before uploading them, offline: file:line:col lines")
    .argument("[files...]", "spec files of the workspace (default: every spec sync would publish)")
    .option("--workspace <dir>", "the folder sync publishes from (default: the current directory)")
    .option("--config <file>", "as sync's --config")
    .option(
      "--json",
      "print { valid, checked, errors, warnings, truncated, problems: [{ severity, file, line, column, message }] }",
    )
    .addHelpText("after", HELP)
    .action(async (files: string[], _options: unknown, cmd: Command) => {
      state.exitCode = await runValidateCommand(files, cmd.opts<ValidateFlags>(), io, output);
    });
}

export async function runValidateCommand(
  files: readonly string[],
  flags: ValidateFlags,
  io: CliIo,
  output: Output,
): Promise<number> {
  const [
    { discoverSpecs, inspectFile },
    { workspacePath },
    { prepareFile },
    { bareMessage, locatedMessage },
    settingsModules,
  ] = await Promise.all([
    import("../../core/discovery/index.ts"),
    import("./workspace-file.ts"),
    import("../../core/prepare/prepare.ts"),
    import("../../core/prepare/problem-text.ts"),
    Promise.all([
      import("../../settings/inputs.ts"),
      import("./input-errors.ts"),
      import("./sync-settings.ts"),
    ]),
  ]);
  const [{ readConfig }, { checkInputs }, { buildSyncSettings }] = settingsModules;
  const syncFlags: SyncFlags = {
    ...(flags.workspace ? { workspace: flags.workspace } : {}),
    ...(flags.config ? { config: flags.config } : {}),
  };
  const settings = buildSyncSettings(syncFlags, io.env, { cwd: io.cwd });
  // `mode: check` so that no token is asked for.
  const config = checkInputs(
    () => readConfig((name) => (name === "mode" ? "check" : settings.readInput(name))),
    settings.settingName,
  );
  // One line per problem: a line break in a file name or a message is shown as `\u000a`, and a line a
  // CI log would read as a command (`::error::`, `##[`) is defused, as the action's log does.
  const line = (text: string) => output.out(printableLine(text));
  const found: Problem[] = [];
  const record = (severity: Problem["severity"]) => (message: string, location?: SourceLocation) => {
    found.push({ severity, ...(location ?? { file: "" }), message });
  };
  const logger: Logger = {
    debug() {},
    info() {},
    notice: record("notice"),
    warning: record("warning"),
    error: record("error"),
    group: (_title, body) => body(),
  };

  const targets = [];
  if (files.length === 0) {
    // git lists the workspace's files (as sync's discovery does); the files given are read as they are.
    const { commandLineGit } = await import("../../adapters/git/base-tree.ts");
    const discovery = await discoverSpecs({
      workspace: settings.workspace,
      git: commandLineGit,
      ...(config.files ? { patterns: config.files } : {}),
      exclude: config.exclude,
      logger: { ...logger, warning: () => {}, notice: () => {} },
    });
    targets.push(...discovery.specs, ...discovery.broken);
    targets.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (targets.length === 0) {
      throw new UsageError(
        "[files...]",
        `no OpenAPI document was found in ${settings.workspace}; pass the files to check.`,
      );
    }
  } else {
    for (const file of files) {
      const relative = workspacePath(settings.workspace, io.cwd, file, "[files...]");
      const inspection = await inspectFile(settings.workspace, relative);
      if (inspection.kind === "spec") targets.push(inspection.spec);
      else if (inspection.kind === "broken") targets.push(inspection.broken);
      else {
        const reason = "reason" in inspection ? `: ${inspection.reason}` : "";
        throw new UsageError("[files...]", `${file} is not an OpenAPI document${reason}.`);
      }
    }
  }

  let invalid = 0;
  // Problems left out of a capped list (a file's "and N more" line), counted but not listed.
  for (const target of targets) {
    const logged = found.length;
    const prepared = await prepareFile(
      target,
      "",
      {
        workspace: settings.workspace,
        sourceUrlFor: undefined,
        // The linter: every finding is an error, as `strict: true` makes it in sync.
        strict: true,
      },
      logger,
    );
    countLeftOutWarnings(found.slice(logged), prepared.warnings);
    if (prepared.problems.length === 0) continue;
    invalid += 1;
    for (const { message, location, more } of prepared.problems) {
      found.push({
        severity: "error",
        ...location,
        message: bareMessage(message, location.file),
        ...(more !== undefined ? { more } : {}),
      });
    }
  }
  // A line that counts what a capped list left out stands for that many.
  const counted = (severity: Problem["severity"]) =>
    found.filter((problem) => problem.severity === severity).reduce((sum, { more }) => sum + (more ?? 1), 0);
  const errors = counted("error");
  const warnings = counted("warning");
  if (flags.json) {
    const json = {
      valid: invalid === 0,
      checked: targets.length,
      errors,
      warnings,
      truncated: found.reduce((sum, { more }) => sum + (more ?? 0), 0),
      problems: found.filter(({ more }) => more === undefined),
    };
    output.out(`${JSON.stringify(json, null, 2)}\n`);
    return invalid === 0 ? ExitCode.ok : ExitCode.failed;
  }
  for (const { severity, message, more: _more, ...location } of found) {
    const label = severity === "error" ? "" : `${severity}: `;
    line(location.file ? locatedMessage({ message: `${label}${message}`, location }) : `${label}${message}`);
  }
  const checked = `${targets.length} file${targets.length === 1 ? "" : "s"} checked`;
  const warned = warnings > 0 ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : "";
  if (invalid === 0) line(`${checked}: valid${warned}.`);
  else
    line(
      `${checked}: ${errors} problem${errors === 1 ? "" : "s"} in ${invalid} file${invalid === 1 ? "" : "s"}${warned}.`,
    );
  return invalid === 0 ? ExitCode.ok : ExitCode.failed;
}

/**
 * The warning line that counts the findings a capped list of warnings left out ("and N more structural
 * warnings"): marked with how many it stands for, as a problem's is.
 */
function countLeftOutWarnings(
  logged: Problem[],
  warned: { count: number; lines: string[] } | undefined,
): void {
  if (!warned || warned.count === warned.lines.length) return;
  const line = logged.findLast(
    ({ severity, message }) => severity === "warning" && /^and \d+ more structural warnings? /.test(message),
  );
  if (line) line.more = warned.count - (warned.lines.length - 1);
}
