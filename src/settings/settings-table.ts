/**
 * Every setting of a run, declared once: its name (the Action's input), default, one-line doc, and how
 * the command line takes it (flag, environment variable). action.yml's inputs and docs/configuration.md's settings
 * table are written from this table (`npx node scripts/settings-table.ts --write`, checked by a test),
 * and the CLI's `sync` flags and help are built from it.
 */

/** How the command line takes a setting. */
export interface CliForm {
  /** The flag as commander reads it: `--slug-prefix <prefix>`, `--no-wait`, `-o, --organization <id>`. */
  readonly flag: string;
  /** The environment variable that sets it when the flag is not given. */
  readonly env: string;
  /** The flag's help, when it says more than the doc fits on one line. */
  readonly help?: string;
  /** The flag may be given several times; the variable then holds one value a line. */
  readonly repeatable?: true;
  readonly choices?: readonly string[];
}

/**
 * What a setting's value is, for the configuration file and its JSON Schema: one text, lines (a list,
 * or one a line), a boolean, a whole number, or `path: slug` lines (a mapping).
 */
export type SettingKind = "text" | "lines" | "boolean" | "integer" | "slugs";

export interface SettingDeclaration {
  /** The Action's input, the configuration file's key, and the name every message uses for the setting. */
  readonly name: string;
  readonly kind: SettingKind;
  /** As action.yml writes it; "" for none. */
  readonly default: string;
  /** One line, Markdown: action.yml's description and docs/configuration.md's row. */
  readonly doc: string;
  /** An input of the Action. */
  readonly action: boolean;
  /** How the command line takes it; undefined when it does not. */
  readonly cli?: CliForm;
  /** A secret: never written into a setting or the configuration file, masked everywhere. */
  readonly secret?: true;
  /** Given per run only (never in the configuration file). */
  readonly perRun?: true;
  /** The runner supplies this default (a workflow expression): action.yml writes it. */
  readonly runnerDefault?: true;
  /**
   * On a pull or merge request, whether the configuration file of the checked-out head may set it.
   * `never`: it chooses where the token goes or what is written live, so it comes only from inputs,
   * flags, variables or the base commit's file. `previews`: it shapes documents or tunes the run; the
   * head's file may set it when the run previews (one that publishes live takes nothing from the head).
   */
  readonly headFile: "never" | "previews";
}

export const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: "config",
    kind: "text",
    default: "",
    doc: "A configuration file of settings and per-spec entries (default: `gitbook-openapi.yaml` at the workspace's root, when it exists); a named file is relative to the workspace in the Action, to the current directory on the command line. Inputs, flags and variables win over it.",
    action: true,
    cli: { flag: "--config <file>", env: "GITBOOK_CONFIG" },
    perRun: true,
    headFile: "never",
  },
  {
    name: "token",
    kind: "text",
    default: "",
    doc: "GitBook API token, from a secret. Required except in `check` mode. Masked in every log.",
    action: true,
    cli: {
      flag: "--token-file <path>",
      env: "GITBOOK_TOKEN",
      help: "read the API token from this file (default: env GITBOOK_TOKEN; GITBOOK_TOKEN_FILE names a file too)",
    },
    secret: true,
    headFile: "never",
  },
  {
    name: "organization",
    kind: "text",
    default: "",
    doc: "Id of the GitBook organization to publish to. Set this or `organization-domain`.",
    action: true,
    cli: {
      flag: "-o, --organization <id>",
      env: "GITBOOK_ORGANIZATION",
      help: "organization id to publish to",
    },
    headFile: "never",
  },
  {
    name: "organization-domain",
    kind: "text",
    default: "",
    doc: "An email domain of the organization (e.g. `example.com`); it must resolve to exactly one organization the token can see (otherwise the error lists the candidates).",
    action: true,
    cli: {
      flag: "--organization-domain <domain>",
      env: "GITBOOK_ORGANIZATION_DOMAIN",
      help: "or: an email domain that resolves to exactly one organization",
    },
    headFile: "never",
  },
  {
    name: "files",
    kind: "lines",
    default: "",
    doc: "Newline-separated globs relative to the workspace (`!` excludes). Default: every OpenAPI document in the workspace, except git-ignored files and `node_modules`; matched files are used even when git ignores them.",
    action: true,
    cli: {
      flag: "--files <glob>",
      env: "GITBOOK_FILES",
      repeatable: true,
      help: "a glob of files to publish, relative to the workspace; repeatable, '!' excludes (default: every OpenAPI document)",
    },
    headFile: "previews",
  },
  {
    name: "exclude",
    kind: "lines",
    default: "",
    doc: "Newline-separated globs of files never published, taken out of what `files` (or discovery) finds.",
    action: true,
    cli: {
      flag: "--exclude <glob>",
      env: "GITBOOK_EXCLUDE",
      repeatable: true,
      help: "a glob of files never published; repeatable",
    },
    headFile: "previews",
  },
  {
    name: "slugs",
    kind: "slugs",
    default: "",
    doc: "Newline-separated `path: slug` lines that name specs explicitly (used as written, without `slug-prefix`).",
    action: true,
    cli: {
      flag: "--slug <path=slug>",
      env: "GITBOOK_SLUGS",
      repeatable: true,
      help: "publish PATH under SLUG exactly; repeatable",
    },
    headFile: "previews",
  },
  {
    name: "slug-prefix",
    kind: "text",
    default: "",
    doc: "Joined in front of every derived slug with `-`.",
    action: true,
    cli: {
      flag: "--slug-prefix <prefix>",
      env: "GITBOOK_SLUG_PREFIX",
      help: "joined in front of every derived slug with '-'",
    },
    headFile: "previews",
  },
  {
    name: "force",
    kind: "boolean",
    default: "false",
    doc: "Upload every spec, even one GitBook already holds unchanged (by default such a spec is reported `unchanged` and not uploaded again).",
    action: true,
    cli: {
      flag: "--force",
      env: "GITBOOK_FORCE",
      help: "upload every spec, even one GitBook already holds unchanged",
    },
    headFile: "previews",
  },
  {
    name: "cache-file",
    kind: "text",
    default: "",
    doc: "A file where a run keeps which version each spec's upload produced, so that the next run, given the file back by the CI's cache, reads no unchanged spec's content from GitBook (docs/publishing.md); relative to the workspace in the Action, to the current directory on the command line. Never used on pull or merge requests. Default: none.",
    action: true,
    cli: {
      flag: "--cache-file <path>",
      env: "GITBOOK_CACHE_FILE",
      help: "keep the re-run cache in this file (restore and save it with the CI's cache)",
    },
    headFile: "never",
  },
  {
    name: "prune",
    kind: "boolean",
    default: "false",
    doc: "Delete the specs this repository published under `slug-prefix` (required with it) and no longer has, proven by each spec's publish record; never a preview, never a spec whose file is still there. `check` mode lists what would be pruned.",
    action: true,
    cli: {
      flag: "--prune",
      env: "GITBOOK_PRUNE",
      help: "delete the organization's specs under --slug-prefix that the folder published and no longer has",
    },
    headFile: "never",
  },
  {
    name: "prune-limit",
    kind: "integer",
    default: "10",
    doc: "The most specs one run may prune; above it the run fails and deletes nothing.",
    action: true,
    cli: { flag: "--prune-limit <n>", env: "GITBOOK_PRUNE_LIMIT" },
    headFile: "never",
  },
  {
    name: "fail-on-breaking",
    kind: "boolean",
    default: "false",
    doc: "On pull and merge requests, fail when a spec has a breaking API change against the base (the comment lists them either way).",
    action: true,
    cli: {
      flag: "--fail-on-breaking",
      env: "GITBOOK_FAIL_ON_BREAKING",
      help: "in a preview, fail when a spec has a breaking API change against the base",
    },
    headFile: "never",
  },
  {
    name: "fail-on-unreviewed",
    kind: "boolean",
    default: "false",
    doc: 'With `fail-on-breaking`, also fail when a spec\'s changes could not be reviewed (its base could not be read, or the comparison went over its memory or time budget); by default such a spec is published and said "not reviewed", and does not fail the run.',
    action: true,
    cli: {
      flag: "--fail-on-unreviewed",
      env: "GITBOOK_FAIL_ON_UNREVIEWED",
      help: "with --fail-on-breaking, also fail when a spec could not be reviewed",
    },
    headFile: "never",
  },
  {
    name: "breaking-allowed",
    kind: "lines",
    default: "",
    doc: "Breaking changes accepted on purpose, one a line: an `operationId`, an API path (`/pets/{id}`) or `METHOD /path`.",
    action: true,
    cli: {
      flag: "--breaking-allowed <id>",
      env: "GITBOOK_BREAKING_ALLOWED",
      repeatable: true,
      help: "a breaking change accepted on purpose: operation id, '/path' or 'METHOD /path'; repeatable",
    },
    headFile: "never",
  },
  {
    name: "strict",
    kind: "boolean",
    default: "false",
    doc: "Refuse a spec for every finding of the official OpenAPI schema (wrong types, missing or unknown fields, a `$ref` where a mapping belongs). By default a spec is refused only for what GitBook cannot take (a syntax error, a `$ref` that cannot be resolved, no `info.title` or `info.version`), and every other finding is a warning at its `file:line:col`.",
    action: true,
    cli: {
      flag: "--strict",
      env: "GITBOOK_STRICT",
      help: "refuse a spec for every finding of the official OpenAPI schema, not only for what GitBook cannot take",
    },
    headFile: "previews",
  },
  {
    name: "source",
    kind: "text",
    default: "text",
    doc: "`text` uploads the (bundled) document; `url` makes GitBook fetch the raw file at this commit (public GitHub repositories only).",
    action: true,
    cli: {
      flag: "--source <source>",
      env: "GITBOOK_SOURCE",
      choices: ["text", "url"],
      help: "'text' uploads the document; 'url' makes GitBook fetch it",
    },
    headFile: "never",
  },
  {
    name: "mode",
    kind: "text",
    default: "auto",
    doc: "`auto` (preview on pull and merge requests, publish otherwise), `publish`, `preview` (to `<slug>-pr-<number>`, deleted when the pull request closes) or `check` (every local check, read-only calls with a token, no writes); the CLI also has `cleanup`.",
    action: true,
    cli: {
      flag: "--mode <mode>",
      env: "GITBOOK_MODE",
      choices: ["auto", "publish", "preview", "check", "cleanup"],
      help: "auto: preview on merge requests, publish otherwise",
    },
    headFile: "never",
  },
  {
    name: "wait",
    kind: "boolean",
    default: "true",
    doc: "Wait until GitBook has processed each spec, and fail on processing errors (`false`: upload and report `submitted`).",
    action: true,
    cli: { flag: "--no-wait", env: "GITBOOK_WAIT", help: "do not wait for GitBook to process the specs" },
    headFile: "previews",
  },
  {
    name: "timeout",
    kind: "integer",
    default: "600",
    doc: "Seconds to wait for processing, for the whole run.",
    action: true,
    cli: { flag: "--timeout <seconds>", env: "GITBOOK_TIMEOUT" },
    headFile: "previews",
  },
  {
    name: "concurrency",
    kind: "integer",
    default: "4",
    doc: "HTTP requests to GitBook in flight at once (1 to 64).",
    action: true,
    cli: { flag: "--concurrency <n>", env: "GITBOOK_CONCURRENCY" },
    headFile: "previews",
  },
  {
    name: "review-heap-mb",
    kind: "integer",
    default: "768",
    doc: 'The heap of one API change comparison, in MiB (8 to 65536); a spec whose comparison needs more is said "not reviewed" (docs/design/change-review.md).',
    action: true,
    cli: { flag: "--review-heap-mb <mb>", env: "GITBOOK_REVIEW_HEAP_MB" },
    headFile: "never",
  },
  {
    name: "review-timeout-ms",
    kind: "integer",
    default: "60000",
    doc: 'The time of one API change comparison, in ms (1 to 21600000); a spec whose comparison takes longer is said "not reviewed", and its upload waits for it.',
    action: true,
    cli: { flag: "--review-timeout-ms <ms>", env: "GITBOOK_REVIEW_TIMEOUT_MS" },
    headFile: "never",
  },
  {
    name: "api-url",
    kind: "text",
    default: "https://api.gitbook.com",
    doc: "Base URL of the GitBook API; the token is only ever sent to this origin (plain `http` only on loopback).",
    action: true,
    cli: { flag: "--api-url <url>", env: "GITBOOK_API_URL" },
    headFile: "never",
  },
  {
    name: "base-commit",
    kind: "text",
    default: "",
    doc: "The commit a preview's API changes are compared with (read from the pull request event and GitLab CI).",
    action: false,
    cli: { flag: "--base-commit <sha>", env: "GITBOOK_BASE_COMMIT" },
    perRun: true,
    headFile: "never",
  },
  {
    name: "comment",
    kind: "boolean",
    default: "true",
    doc: "On pull requests, keep one comment with the results up to date.",
    action: true,
    headFile: "previews",
  },
  {
    name: "comment-key",
    kind: "text",
    default: "default",
    doc: "Separates the comments of several instances of this action in one workflow.",
    action: true,
    headFile: "never",
  },
  {
    name: "github-token",
    kind: "text",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow expression action.yml writes
    default: "${{ github.token }}",
    doc: "Token to write the pull request comment (needs `pull-requests: write`).",
    action: true,
    secret: true,
    runnerDefault: true,
    headFile: "never",
  },
];

const BY_NAME = new Map(SETTINGS.map((setting) => [setting.name, setting]));

/** A setting's declaration; throws for a name the table does not declare (a programming error). */
export function setting(name: string): SettingDeclaration {
  const found = BY_NAME.get(name);
  if (found === undefined) throw new Error(`No setting is named '${name}'.`);
  return found;
}

/** A setting's default as a number (for the numeric ones). */
export function numericDefault(name: string): number {
  return Number(setting(name).default);
}
