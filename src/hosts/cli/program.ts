/**
 * The `gitbook-openapi` command line: parses the arguments with commander, runs one command, and turns
 * every outcome into an exit code ({@link ExitCode}). Nothing here reads `process`: the caller passes the
 * arguments, the environment and the streams, so that tests can run it as a process or in process.
 */
import { stat } from "node:fs/promises";
import { Command, CommanderError, InvalidArgumentError as FlagValueError, Option } from "commander";
import {
  AuthenticationError,
  InvalidArgumentError as ClientArgumentError,
  PermissionDeniedError,
} from "../../core/service/errors.ts";
import { ConfigFileError } from "../../settings/config-file-error.ts";
import { type CliForm, SETTINGS, type SettingDeclaration, setting } from "../../settings/settings-table.ts";
import type { BundleFlags } from "./bundle.ts";
import type { ConnectionFlags } from "./connection.ts";
import type { DiffFlags } from "./diff.ts";

import { UsageError } from "./errors.ts";
import { DIFF_EXIT_CODES_HELP, EXIT_CODES_HELP, ExitCode } from "./exit-codes.ts";
import { longFlag } from "./flag-names.ts";
import { type CliIo, Output, printable } from "./output.ts";
import type * as read from "./read-commands.ts";
import type { SyncFlags } from "./sync-settings.ts";
import { TokenSources } from "./token-sources.ts";
import { addValidateCommand } from "./validate.ts";
import { CLI_VERSION } from "./version.ts";

const NAME = "gitbook-openapi";

// The commands' implementations load when their command runs (a dynamic import, a chunk of its own in
// dist/): `--version` and `--help` load none of them, and the read commands neither YAML nor bundling.
const readCommands = () => import("./read-commands.ts");
const LATEST: typeof read.LATEST = "latest";

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const output = new Output(io);
  const code = await runCommand(argv, io, output);
  // A write that failed (a closed pipe, a full disk) is the command's failure, never a success.
  const failed = await output.writeFailure();
  return failed !== undefined && code === ExitCode.ok ? ExitCode.failed : code;
}

async function runCommand(argv: readonly string[], io: CliIo, output: Output): Promise<number> {
  const state = { exitCode: ExitCode.ok as number };
  try {
    // Before anything can be written: every source of the token is read, so that the output redacts it
    // from every line, usage errors that echo an argument included.
    const tokens = new TokenSources(io.env, output);
    await tokens.prime(argv);
    refuseTokenFlag(argv);
    await buildProgram(argv, io, output, tokens, state).parseAsync([...argv], { from: "user" });
    return state.exitCode;
  } catch (error) {
    return reportError(error, output);
  }
}

/** `--token VALUE` would leave the token in shell history and process lists: refused before parsing. */
function refuseTokenFlag(argv: readonly string[]): void {
  for (const arg of argv) {
    if (arg === "--") return;
    if (arg === "--token" || arg.startsWith("--token=")) {
      throw new UsageError(
        "--token",
        "not accepted: a token on the command line ends up in shell history and process lists. Set the GITBOOK_TOKEN variable, or pass --token-file PATH.",
      );
    }
  }
}

function reportError(error: unknown, output: Output): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help).
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return ExitCode.ok;
    return ExitCode.usage;
  }
  const message = printable(error instanceof Error ? error.message : String(error), true);
  output.err(`${NAME}: error: ${message}\n`);
  if (error instanceof UsageError || error instanceof ClientArgumentError) {
    output.err(`Run '${NAME} --help' for usage.\n`);
    return ExitCode.usage;
  }
  if (error instanceof ConfigFileError) return ExitCode.usage;
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return ExitCode.refused;
  return ExitCode.failed;
}

function parseLimit(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) {
    throw new FlagValueError("expected a whole number of items, 1 or more.");
  }
  return Number(value);
}

function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

const CONNECTION_HELP = `Environment:
  GITBOOK_TOKEN          the API token (or --token-file PATH; never a flag's value)
  GITBOOK_ORGANIZATION   default for --organization
  GITBOOK_API_URL        default for --api-url`;

interface ReadFlags extends ConnectionFlags {
  json?: boolean;
  limit?: number;
}

function buildProgram(
  argv: readonly string[],
  io: CliIo,
  output: Output,
  tokens: TokenSources,
  state: { exitCode: number },
): Command {
  const program = new Command(NAME)
    .description("Publish OpenAPI specifications to GitBook, and read what GitBook holds.")
    .version(CLI_VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help for the command")
    .exitOverride()
    .showHelpAfterError(`(run with --help for usage)`)
    .configureOutput({
      writeOut: (text) => output.out(text),
      writeErr: (text) => output.err(text),
      // Commander's errors quote the argument as given: its escape sequences are shown, not run.
      outputError: (text, write) => write(printable(text, true)),
      getOutHelpWidth: () => io.stdout.columns ?? 100,
      getErrHelpWidth: () => io.stderr.columns ?? 100,
    })
    .addHelpText(
      "after",
      `
Examples:
  $ export GITBOOK_TOKEN=...             # from your CI's secret store
  $ ${NAME} sync -o ORG_ID --files 'specs/*.yaml'
  $ ${NAME} specs list -o ORG_ID
  $ ${NAME} versions content payments latest -o ORG_ID --json | jq .
  $ ${NAME} diff ../main/api/openapi.yaml api/openapi.yaml --fail-on-breaking

${EXIT_CODES_HELP}`,
    );

  /** Adds the connection flags, the common help, and an action that gets a client. */
  function readCommand<A extends unknown[]>(
    command: Command,
    options: {
      organization: boolean;
      limit?: boolean;
      examples: string[];
      /** Variables the command reads besides the connection's, checked for the token. */
      variables?: string[];
    },
    run: (context: read.ReadContext, organization: string, flags: ReadFlags, ...args: A) => Promise<void>,
  ): Command {
    if (options.organization) {
      command.option("-o, --organization <id>", "organization id (env: GITBOOK_ORGANIZATION)");
    }
    if (options.limit) {
      command.option(
        "--limit <n>",
        "print at most N items (default: all, paging through the list)",
        parseLimit,
      );
    }
    command
      .option(
        "--api-url <url>",
        "base URL of the GitBook API; plain http only on loopback (env: GITBOOK_API_URL, default: https://api.gitbook.com)",
      )
      .option("--token-file <path>", "read the API token from this file (default: env GITBOOK_TOKEN)")
      .option("--json", "print JSON for scripts: stdout holds only JSON")
      .addHelpText(
        "after",
        `\nExamples:\n${options.examples.map((line) => `  $ ${line}`).join("\n")}\n\n${CONNECTION_HELP}\n\n${EXIT_CODES_HELP}`,
      )
      .action(async (...received: unknown[]) => {
        const cmd = received.at(-1) as Command;
        const flags = cmd.opts<ReadFlags>();
        const args = received.slice(0, -2) as A;
        const given = await tokens.read(flags.tokenFile);
        const [{ createClient, resolveConnection }, { refuseToken }] = await Promise.all([
          import("./connection.ts"),
          import("./sync-inputs.ts"),
        ]);
        for (const [key, value] of Object.entries(flags)) {
          const flag = `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
          if (typeof value === "string" && key !== "tokenFile") refuseToken(flag, value, given);
        }
        for (const name of options.variables ?? []) refuseToken(name, io.env[name], given);
        const connection = resolveConnection(flags, io.env, options.organization, given);
        const token = given ?? (await tokens.require(flags.tokenFile));
        const client = createClient(connection.apiUrl, token.value);
        try {
          await run(
            { client, output, json: flags.json === true },
            connection.organization ?? "",
            flags,
            ...args,
          );
        } finally {
          await client.close();
        }
      });
    return command;
  }

  // Only the invoked command is declared (commander's setup of every command and option is a few ms of
  // each start); every one for the program's own help, `help <command>`, and a name commander must
  // suggest a command for.
  const commands: Record<string, () => void> = {
    specs: () => {
      const specs = program
        .command("specs")
        .description("list, show and delete the specifications of an organization");
      readCommand(
        specs.command("list").description("list the specifications of the organization"),
        {
          organization: true,
          limit: true,
          examples: [`${NAME} specs list -o ORG_ID`, `${NAME} specs list --json --limit 10`],
        },
        async (context, org, flags) => (await readCommands()).listSpecs(context, org, flags.limit),
      );
      readCommand(
        specs
          .command("get")
          .description("show one specification: state, last version, errors, links")
          .argument("<slug>"),
        {
          organization: true,
          examples: [`${NAME} specs get payments -o ORG_ID`, `${NAME} specs get payments --json`],
        },
        async (context, org, _flags, slug: string) => (await readCommands()).getSpec(context, org, slug),
      );
      readCommand(
        specs.command("delete").description("delete a specification and all its versions").argument("<slug>"),
        { organization: true, examples: [`${NAME} specs delete payments-pr-42 -o ORG_ID`] },
        async (context, org, _flags, slug: string) => (await readCommands()).deleteSpec(context, org, slug),
      );
    },
    versions: () => {
      const versions = program
        .command("versions")
        .description("list and show the versions of a specification");
      readCommand(
        versions.command("list").description("list the versions of a specification").argument("<slug>"),
        { organization: true, limit: true, examples: [`${NAME} versions list payments -o ORG_ID --limit 5`] },
        async (context, org, flags, slug: string) =>
          (await readCommands()).listVersions(context, org, slug, flags.limit),
      );
      readCommand(
        versions
          .command("get")
          .description("show one version of a specification (default: the latest)")
          .argument("<slug>")
          .argument("[version]", "a version id, or 'latest'", LATEST),
        {
          organization: true,
          examples: [`${NAME} versions get payments`, `${NAME} versions get payments VERSION_ID --json`],
        },
        async (context, org, _flags, slug: string, version: string) =>
          (await readCommands()).getVersion(context, org, slug, version),
      );
      readCommand(
        versions
          .command("content")
          .description("print the content of a version (default: the latest)")
          .argument("<slug>")
          .argument("[version]", "a version id, or 'latest'", LATEST),
        { organization: true, examples: [`${NAME} versions content payments latest --json > payments.json`] },
        async (context, org, _flags, slug: string, version: string) =>
          (await readCommands()).getVersionContent(context, org, slug, version),
      );
    },
    orgs: () => {
      readCommand(
        program
          .command("orgs")
          .description("list the organizations of an email domain that the token can see")
          .option(
            "--email-domain <domain>",
            "the email domain, e.g. example.com (env: GITBOOK_ORGANIZATION_DOMAIN)",
          ),
        {
          organization: false,
          examples: [`${NAME} orgs --email-domain example.com`],
          variables: ["GITBOOK_ORGANIZATION_DOMAIN"],
        },
        async (context, _org, flags) => {
          const domain =
            (flags as { emailDomain?: string }).emailDomain || io.env.GITBOOK_ORGANIZATION_DOMAIN;
          if (!domain?.trim()) {
            throw new UsageError(
              "--email-domain",
              "missing. Pass an email domain of the organization, e.g. --email-domain example.com.",
            );
          }
          return (await readCommands()).listOrganizations(context, domain.trim().replace(/^@/, ""));
        },
      );
    },
    sync: () => addSyncCommand(program, io, output, tokens, state),
    diff: () => addDiffCommand(program, io, output, state),
    bundle: () => addBundleCommand(program, io, output, state),
    validate: () => addValidateCommand(program, io, output, state),
  };
  const [first] = argv;
  const invoked = first !== undefined && Object.hasOwn(commands, first) ? [first] : Object.keys(commands);
  for (const name of invoked) commands[name]?.();
  return program;
}

/** A review budget's variable in diff's help, with the settings table's default. */
function budgetVariable(name: string, what: string): string {
  const row = setting(name);
  return `  ${(row.cli?.env ?? name).padEnd(30)}${what} (default: ${row.default})`;
}

/** Written when asked for: the table is not read at every start. */
const diffHelp = () => `
Each file is read as sync reads a spec, and bundled when it references other files: its $refs may lead
anywhere in the git work tree it is in (else in the current directory when it is inside it, else in its
own folder). The comparison runs under the change review's budget, as in sync.

With --base, every spec of the workspace (its working tree, uncommitted changes included) is reviewed
against that commit as a pull request's review does: the same discovery, slugs, bundling, configuration
file (specs: overlays and audiences, each audience compared with itself), breaking-allowed and verdicts,
and specs removed since the ref reported as breaking. No token, no network. --json prints
{ base, specs: [{ file, slug, against, breaking, other, allowed, notReviewed? }], removedSpecs }.

Examples:
  $ ${NAME} diff --base origin/main              # what the pull request's review will say
  $ ${NAME} diff --base origin/main --fail-on-breaking
  $ git worktree add ../base origin/main        # the base, checked out beside this one
  $ ${NAME} diff ../base/api/openapi.yaml api/openapi.yaml
  $ ${NAME} diff old.json new.json --json | jq '.breaking[] | .operation + ": " + .message'
  $ ${NAME} diff ../base/api/openapi.yaml api/openapi.yaml --fail-on-breaking

Environment:
${budgetVariable("review-heap-mb", "the comparison's heap, in MB")}
${budgetVariable("review-timeout-ms", "the comparison's time, in ms")}

${DIFF_EXIT_CODES_HELP}`;

function addBundleCommand(program: Command, io: CliIo, output: Output, state: { exitCode: number }): void {
  program
    .command("bundle")
    .description(
      "print (or write) exactly what sync would upload for one spec file: bundled, with its publish record",
    )
    .argument("<file>", "a spec file of the workspace")
    .option("-o, --output <file>", "write it to this file instead of stdout")
    .option("--workspace <dir>", "the folder sync publishes from (default: the current directory)")
    .option("--slug-prefix <prefix>", "as sync's --slug-prefix (it is part of the publish record's owner)")
    .option("--config <file>", "as sync's --config")
    .option("--audience <name>", "one of the file's audiences (configuration file): what that audience gets")
    .addHelpText(
      "after",
      `\nExamples:\n  $ ${NAME} bundle api/openapi.yaml -o bundled.yaml\n  $ ${NAME} bundle api/openapi.yaml --audience public\n\nExit codes:\n  0  written\n  1  the spec has a problem that stops its upload (each is printed)\n  2  usage or input error (a file outside the workspace or not a spec, a bad setting)`,
    )
    .action(async (file: string, _options: unknown, cmd: Command) => {
      const { runBundleCommand } = await import("./bundle.ts");
      state.exitCode = await runBundleCommand(file, cmd.opts<BundleFlags>(), io, output);
    });
}

/** The flags of `diff --base <ref>`, beside the two-file form's. */
interface DiffBaseOptions {
  base?: string;
  failOnUnreviewed?: boolean;
  workspace?: string;
  config?: string;
}

function addDiffCommand(program: Command, io: CliIo, output: Output, state: { exitCode: number }): void {
  program
    .command("diff")
    .description(
      "list the API changes between two OpenAPI files, or of every spec since a git ref: breaking first",
    )
    .usage("[options] <base> <head>  |  diff [options] --base <git ref>")
    .argument("[base]", "the spec as it was (any path: another checkout, a worktree, an export)")
    .argument("[head]", "the spec as it is now")
    .option(
      "--base <ref>",
      "instead of two files: review every spec of the workspace against this git ref, as a pull request's review does",
    )
    .option(
      "--json",
      "print { breaking, other } for scripts, each change as in the results: stdout holds only JSON",
    )
    .option("--fail-on-breaking", "exit with 1 when a breaking change is found")
    .option("--fail-on-unreviewed", "with --base and --fail-on-breaking: a spec not reviewed fails too")
    .option(
      "--workspace <dir>",
      "with --base: the folder sync publishes from (default: the current directory)",
    )
    .option("--config <file>", "with --base: as sync's --config")
    .addHelpText("after", diffHelp)
    .action(async (base: string | undefined, head: string | undefined, _options: unknown, cmd: Command) => {
      const flags = cmd.opts<DiffFlags & DiffBaseOptions>();
      if (flags.base !== undefined) {
        if (base !== undefined)
          throw new UsageError("--base", "compares the workspace with a ref: give it no file arguments.");
        const { runDiffBaseCommand } = await import("./diff-base.ts");
        state.exitCode = await runDiffBaseCommand({ ...flags, base: flags.base }, io, output);
        return;
      }
      for (const [name, value] of [
        ["--fail-on-unreviewed", flags.failOnUnreviewed],
        ["--workspace", flags.workspace],
        ["--config", flags.config],
      ] as const)
        if (value !== undefined) throw new UsageError(name, "is for diff --base <ref> only.");
      if (base === undefined || head === undefined)
        throw new UsageError("diff", "needs two spec files (diff <base> <head>), or --base <git ref>.");
      const { runDiffCommand } = await import("./diff.ts");
      state.exitCode = await runDiffCommand({ base, head }, flags, io, output);
    });
}

/** The run's own flags (where it runs and what it writes), which are not settings of the run. */
const RUN_VARIABLES: readonly [string, string][] = [
  ["GITBOOK_WORKSPACE", "--workspace"],
  ["GITBOOK_JSON", "'true' for --json"],
  ["GITBOOK_QUIET", "'true' for --quiet"],
  ["GITBOOK_JUNIT", "--junit"],
  ["GITBOOK_CODEQUALITY", "--codequality"],
  ["GITBOOK_MERGE_REQUEST", "--merge-request"],
];

/** The variables of `sync`, from the settings table, then the run's own. */
function syncEnvironmentHelp(): string {
  const rows: [string, string][] = SETTINGS.flatMap((declared): [string, string][] => {
    const cli = declared.cli;
    if (cli === undefined) return [];
    if (declared.secret) return [[cli.env, "the API token (or --token-file PATH; never a flag's value)"]];
    const flag = longFlag(cli.flag);
    const described =
      flag === "--no-wait" ? "'false' for --no-wait" : cli.repeatable ? `${flag} (one a line)` : flag;
    return [[cli.env, described]];
  });
  return [...rows, ...RUN_VARIABLES].map(([env, flag]) => `  ${env.padEnd(30)}${flag}`).join("\n");
}

/** Written when asked for: the settings table is not read at every start. */
const syncHelp = () => `
Examples:
  $ ${NAME} sync -o ORG_ID                               # every OpenAPI document of the folder
  $ ${NAME} sync -o ORG_ID --files 'api/**/*.yaml' --files '!api/drafts/**'
  $ ${NAME} sync --organization-domain example.com --slug api/openapi.yaml=payments
  $ ${NAME} sync --mode check                            # validate only, no token needed
  $ ${NAME} sync -o ORG_ID --mode preview --merge-request 42 --junit report.xml

Environment (flags win):
${syncEnvironmentHelp()}

${EXIT_CODES_HELP}`;

/** A setting's flag for commander, from the settings table: its help, default, choices, repetition. */
function settingOption(declared: SettingDeclaration, cli: CliForm): Option {
  const shownDefault =
    declared.default !== "" && cli.flag.includes("<") && !cli.choices
      ? ` (default: ${declared.default})`
      : "";
  const option = new Option(cli.flag, `${cli.help ?? firstSentence(declared.doc)}${shownDefault}`);
  if (cli.choices) option.choices([...cli.choices]);
  if (cli.repeatable) option.argParser(repeatable);
  return option;
}

/** The doc's first sentence, plain: the help of a flag that has none of its own. */
function firstSentence(doc: string): string {
  const plain = doc.replaceAll("`", "'");
  const end = plain.search(/[.;](\s|$)/);
  const sentence = end < 0 ? plain : plain.slice(0, end);
  return /^[A-Z][a-z]/.test(sentence) ? sentence.charAt(0).toLowerCase() + sentence.slice(1) : sentence;
}

function addSyncCommand(
  program: Command,
  io: CliIo,
  output: Output,
  tokens: TokenSources,
  state: { exitCode: number },
): void {
  const command = program
    .command("sync")
    .description("find, check and publish the OpenAPI specifications of a folder, as the GitHub Action does");
  for (const declared of SETTINGS) if (declared.cli) command.addOption(settingOption(declared, declared.cli));
  command
    .option("--workspace <dir>", "the folder to publish from (default: the current directory)")
    .option("--json", "print the results as JSON: stdout holds only JSON")
    .option("-q, --quiet", "print only errors and the final line on stderr (no log, no progress)")
    .option("--junit <file>", "write a JUnit XML report, one test case per spec")
    .option(
      "--codequality <file>",
      "write a GitLab Code Quality report: validation findings and breaking API changes at their lines",
    )
    .option("--merge-request <iid>", "the merge (pull) request number, for previews and their cleanup")
    .addHelpText("after", syncHelp)
    .action(async (_options: unknown, cmd: Command) => {
      const opts = cmd.opts<SyncFlags & { wait: boolean }>();
      const flags: SyncFlags = { ...opts, wait: opts.wait === false ? false : undefined };
      const token = await tokens.read(flags.tokenFile);
      const [{ buildSyncSettings }, { runSyncCommand }] = await Promise.all([
        import("./sync-settings.ts"),
        import("./sync.ts"),
      ]);
      const settings = buildSyncSettings(flags, io.env, { cwd: io.cwd, ...(token ? { token } : {}) });
      await assertDirectory(settings.workspace, flags.workspace ? "--workspace" : "GITBOOK_WORKSPACE");
      state.exitCode = await runSyncCommand(settings, output, io.env, io.signals, io.timing);
    });
}

async function assertDirectory(directory: string, setting: string): Promise<void> {
  const found = await stat(directory).catch(() => undefined);
  if (!found?.isDirectory()) {
    throw new UsageError(setting, `${JSON.stringify(directory)} is not a directory.`);
  }
}
