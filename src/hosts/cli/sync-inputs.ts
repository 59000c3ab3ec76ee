/**
 * The command line's settings as the action's inputs, from flags then variables then the configuration
 * file's values (see src/hosts/cli/sync-settings.ts, which re-exports all of it and reads the file). A
 * module of its own, without the configuration file's YAML reader: the read commands check their
 * connection settings with it and load no YAML. Pure: no file or network access.
 */
import { formatSlugLine } from "../../core/slugs/mapping.ts";
import { explainInvalidSlug } from "../../core/slugs/rule.ts";
import { Redactor } from "../../core/text/redact.ts";
import type { ConfigFile } from "../../settings/config-file.ts";
import type { InputReader } from "../../settings/inputs.ts";
import { SETTINGS } from "../../settings/settings-table.ts";
import { UsageError } from "./errors.ts";
import { longFlag, TOKEN_SETTINGS } from "./flag-names.ts";
import type { Env } from "./streams.ts";

/** The `sync` command's flags as parsed; undefined when not given. */
export interface SyncFlags {
  organization?: string;
  organizationDomain?: string;
  /** `--files GLOB`, repeatable. */
  files?: readonly string[];
  /** `--slug PATH=SLUG`, repeatable. */
  slug?: readonly string[];
  slugPrefix?: string;
  source?: string;
  mode?: string;
  /** False for `--no-wait`; undefined when not given. */
  wait?: boolean;
  timeout?: string;
  concurrency?: string;
  apiUrl?: string;
  workspace?: string;
  json?: boolean;
  /** `--quiet`: errors and the final line only. */
  quiet?: boolean;
  junit?: string;
  mergeRequest?: string;
  tokenFile?: string;
  prune?: boolean;
  pruneLimit?: string;
  force?: boolean;
  failOnBreaking?: boolean;
  failOnUnreviewed?: boolean;
  /** `--breaking-allowed ID`, repeatable. */
  breakingAllowed?: readonly string[];
  baseCommit?: string;
  /** `--config FILE`. */
  config?: string;
  /** `--exclude GLOB`, repeatable. */
  exclude?: readonly string[];
  /** `--strict`. */
  strict?: boolean;
}

/** The API token, once read, with where it came from. */
export interface TokenSetting {
  value: string;
  /** How the user gave it: "--token-file" or "GITBOOK_TOKEN". */
  setting: string;
}

export interface SyncSettings {
  /** The action's inputs (action.yml names), trimmed; "" when not set. */
  readonly readInput: InputReader;
  /** The flag or variable a user wrote for an input, e.g. `settingName("slug-prefix")` → "--slug-prefix". */
  readonly settingName: (input: string) => string;
  /** Absolute path of the folder to publish from (`--workspace`, default the current directory). */
  readonly workspace: string;
  /** The current directory, which the command line's relative paths are resolved against. */
  readonly cwd?: string;
  /** `--json`: stdout holds only the results, as JSON. */
  readonly json: boolean;
  /** `--quiet` (or `GITBOOK_QUIET`): the log on stderr holds errors and the final line only. */
  readonly quiet: boolean;
  /** `--junit FILE`, resolved against the current directory. */
  readonly junitFile: string | undefined;
  /** How the user named it: "--junit" or "GITBOOK_JUNIT". */
  readonly junitSetting?: string | undefined;
  /** `--merge-request IID`: the merge or pull request number, for previews and the comment. */
  readonly mergeRequest: number | undefined;
  /**
   * The configuration file as the work tree has it, where it is looked for, and these settings with other
   * files in its place: a review's run reads what the pull request must not steer from the base commit's
   * (src/settings/pull-request-config.ts). Undefined: these settings read no file.
   */
  readonly config?: {
    readonly head: ConfigFile | undefined;
    /** The folder a named file is relative to, or the default file is looked for in. */
    readonly folder: string;
    readonly named: string | undefined;
    withFiles(files: readonly ConfigFile[]): SyncSettings;
  };
}

interface Setting {
  input: string;
  /** The long flag, as messages name it: `--slug-prefix`, `--no-wait`. */
  flag: string;
  env: string;
  /** The flag's value as the input expects it; undefined when the flag was not given. */
  fromFlag: (flags: SyncFlags) => string | undefined;
  /** The variable's value as the input expects it. */
  fromEnv?: (raw: string) => string;
}

/** How a flag's parsed value becomes the input's text, where it is not the value itself. */
const FLAG_VALUES: Readonly<Record<string, Pick<Setting, "fromFlag" | "fromEnv">>> = {
  files: { fromFlag: (f) => f.files?.join("\n") },
  slugs: {
    fromFlag: (f) => f.slug && slugLines(f.slug, "--slug"),
    fromEnv: (raw) => slugLines(raw.split(/\r?\n/), "GITBOOK_SLUGS"),
  },
  wait: { fromFlag: (f) => (f.wait === false ? "false" : undefined) },
  prune: { fromFlag: (f) => (f.prune ? "true" : undefined) },
  force: { fromFlag: (f) => (f.force ? "true" : undefined) },
  "fail-on-breaking": { fromFlag: (f) => (f.failOnBreaking ? "true" : undefined) },
  "fail-on-unreviewed": { fromFlag: (f) => (f.failOnUnreviewed ? "true" : undefined) },
  "breaking-allowed": { fromFlag: (f) => f.breakingAllowed?.join("\n") },
  exclude: { fromFlag: (f) => f.exclude?.join("\n") },
  strict: { fromFlag: (f) => (f.strict ? "true" : undefined) },
};

export { longFlag, TOKEN_SETTINGS };

/** The key commander gives a flag's value: `--slug-prefix` → `slugPrefix`, `--no-wait` → `wait`. */
function flagKey(flag: string): string {
  return flag.replace(/^--(no-)?/, "").replace(/-([a-z])/g, (_dash, letter: string) => letter.toUpperCase());
}

/** Every setting the CLI takes (src/settings/settings-table.ts), the token aside. */
export const SYNC_SETTINGS: readonly Setting[] = SETTINGS.flatMap((declared) => {
  if (declared.cli === undefined || declared.secret) return [];
  const flag = longFlag(declared.cli.flag);
  const key = flagKey(flag);
  return [
    {
      input: declared.name,
      flag,
      env: declared.cli.env,
      fromFlag: (f: SyncFlags) => (f as Record<string, string | undefined>)[key],
      ...FLAG_VALUES[declared.name],
    },
  ];
});

export interface Resolved {
  value: string;
  /** The flag or variable it came from. */
  setting: string;
}

/**
 * Refuses a setting's value that holds the token, whole or a piece of 8+ characters (the redactor's
 * rule), naming the flag or variable and never the value: a setting is shown in logs and reports, and
 * written where it goes (a slug, a comment's marker), where redacting it would change what the run does.
 */
export function refuseToken(
  setting: string,
  value: string | undefined,
  token: TokenSetting | undefined,
): void {
  if (token === undefined || value === undefined) return;
  if (new Redactor([token.value]).contains(value)) {
    throw new UsageError(
      setting,
      `holds the GitBook API token given in ${token.setting} (whole, or a piece of 8 or more of its characters). A setting is shown in logs and reports, so it must never hold a secret: pass the token only through GITBOOK_TOKEN or --token-file, and remove it from ${setting}.`,
    );
  }
}

/**
 * The inputs a CLI run gives the core, from flags, then variables. Throws {@link UsageError} for a
 * value that holds the token, and for a `--slug` (or `GITBOOK_SLUGS` line) that is not `PATH=SLUG`;
 * every other check is the core's, whose messages name the setting through `settingName`.
 */
export function createInputReader(
  flags: SyncFlags,
  env: Env,
  token?: TokenSetting,
  files: readonly ConfigFile[] = [],
): Pick<SyncSettings, "readInput" | "settingName"> {
  // Every setting's flag as given, before any of them is read: no message below can quote the token.
  // (The folders and files of the run itself, --workspace and --junit, are paths on this machine, shown
  // redacted like any text, and not checked.)
  for (const setting of SYNC_SETTINGS) {
    const given: unknown = (flags as Record<string, unknown>)[flagKey(setting.flag)];
    for (const item of typeof given === "string" ? [given] : Array.isArray(given) ? given : []) {
      refuseToken(setting.flag, String(item), token);
    }
  }
  const resolved = new Map<string, Resolved>();
  for (const setting of SYNC_SETTINGS) {
    const flagValue = setting.fromFlag(flags)?.trim();
    if (flagValue !== undefined && flagValue !== "") {
      resolved.set(setting.input, { value: flagValue, setting: setting.flag });
      continue;
    }
    const raw = env[setting.env]?.trim();
    if (raw !== undefined && raw !== "") {
      refuseToken(setting.env, raw, token);
      const value = (setting.fromEnv?.(raw) ?? raw).trim();
      resolved.set(setting.input, { value, setting: setting.env });
    }
  }
  // Then the configuration files, the first to hold a setting winning: flags and variables win over them.
  for (const file of files) {
    for (const [name, value] of file.values) {
      if (resolved.has(name)) continue;
      const setting = `${file.file}: ${name}`;
      refuseToken(setting, value, token);
      resolved.set(name, { value, setting });
    }
  }
  if (token !== undefined) resolved.set("token", { value: token.value, setting: token.setting });
  const byInput = new Map(SYNC_SETTINGS.map((setting) => [setting.input, setting]));
  return {
    readInput: (name) => resolved.get(name)?.value ?? "",
    settingName(name) {
      const given = resolved.get(name)?.setting;
      if (given !== undefined) return given;
      if (name === "token") return TOKEN_SETTINGS;
      return byInput.get(name)?.flag ?? `--${name}`;
    },
  };
}

/**
 * `PATH=SLUG` items as the `slugs` input's `PATH: SLUG` lines. Items already written `PATH: SLUG` are
 * kept as they are (the variable may hold either form); blank items and `#` comments are dropped.
 */
function slugLines(items: readonly string[], setting: string): string {
  const lines: string[] = [];
  for (const raw of items) {
    const item = raw.trim();
    if (item === "" || item.startsWith("#")) continue;
    const equals = item.lastIndexOf("=");
    if (equals === -1) {
      if (setting !== "--slug" && item.includes(":")) {
        lines.push(item);
        continue;
      }
      throw new UsageError(
        setting,
        `${JSON.stringify(item)} is not PATH=SLUG; for example --slug api/openapi.yaml=payments.`,
      );
    }
    const file = item.slice(0, equals).trim();
    const slug = item.slice(equals + 1).trim();
    if (file === "" || slug === "") {
      throw new UsageError(setting, `${JSON.stringify(item)} has an empty ${file === "" ? "path" : "slug"}.`);
    }
    const reason = explainInvalidSlug(slug);
    if (reason !== undefined) {
      throw new UsageError(
        setting,
        `the slug ${JSON.stringify(slug)} is not valid because ${reason}; use lowercase letters, digits and single '-' between them.`,
      );
    }
    const line = formatSlugLine(file, slug);
    if (line === undefined) {
      throw new UsageError(
        setting,
        `the path ${JSON.stringify(file)} cannot be mapped (a line break or a backslash).`,
      );
    }
    lines.push(line);
  }
  return lines.join("\n");
}
