/**
 * The configuration file on a pull or merge request (docs/security.md, docs/design/trust.md). The
 * work tree holds the pull request's head, which its author controls, so the head's file never chooses
 * where the token goes or what is written live: a setting whose row says `headFile: "never"` comes from
 * inputs, flags, variables, or the file as the base commit has it (read from git by the host). The head's
 * file may set the rest, and only when the run previews: a run that publishes live on a pull request
 * takes nothing from it. Every value of the head's file that is not used this way is a warning naming it.
 */
import path from "node:path";
import type { Git } from "../core/ports.ts";
import { escapeUntrusted } from "../core/text/log-protocol.ts";
import { type ConfigFile, ConfigFileError, DEFAULT_CONFIG_FILES, parseConfigFile } from "./config-file.ts";
import type { InputReader } from "./inputs.ts";
import { SETTINGS, setting } from "./settings-table.ts";
import { SHAPING_INPUT } from "./shaping-value.ts";

/** The base commit's configuration file as git gave it: its text (undefined when it has none), or why not. */
export type BaseConfigText =
  | { ok: true; commit: string; text: string | undefined }
  | { ok: false; reason: string };

export interface PullRequestConfig {
  /** What the run takes from configuration files, their keys disjoint: the base's, then the head's. */
  readonly files: readonly ConfigFile[];
  /** One a line: what of the head's file was ignored, and why. */
  readonly warnings: readonly string[];
}

/** The settings a head's file never sets on a pull or merge request (and the file may hold). */
export const TRUST_SETTINGS: readonly string[] = SETTINGS.filter(
  (s) => s.headFile === "never" && !s.secret && !s.perRun,
).map((s) => s.name);

const TRUSTED = new Set(TRUST_SETTINGS);

/** How a warning names a value of the file: `specs` for the shaping of its spec entries. */
const keyName = (key: string) => (key === SHAPING_INPUT ? "specs" : key);

/**
 * What the configuration files give a run on a pull or merge request. `readInput` reads the inputs,
 * flags and variables only (never a file): with the base's file it decides the mode, and whether the run
 * publishes live. `fileName` is the file's name, as the base is asked for it.
 */
export function pullRequestConfig(options: {
  head: ConfigFile | undefined;
  base: BaseConfigText;
  fileName: string;
  readInput: InputReader;
}): PullRequestConfig {
  const { head, readInput } = options;
  const warnings: string[] = [];
  let unreadable: string | undefined;
  const base = readBase(options.base, options.fileName, (reason) => {
    unreadable = reason;
  });
  const mode = readInput("mode") || base?.values.get("mode") || setting("mode").default;
  const live = mode.toLowerCase() === "publish";
  const files: ConfigFile[] = [];
  if (base) files.push(only(base, (key) => live || TRUSTED.has(key)));
  if (head && !live) files.push(only(head, (key) => !TRUSTED.has(key)));
  const headKeys = [...(head?.values.keys() ?? [])];
  if (head && unreadable !== undefined)
    warnings.push(
      unreadableBase(
        escapeUntrusted(head.file),
        escapeUntrusted(unreadable),
        headKeys.filter((key) => TRUSTED.has(key)),
      ),
    );
  for (const key of headKeys) {
    const trusted = TRUSTED.has(key);
    if (!live && (!trusted || base === undefined)) continue;
    if (base?.values.get(key) === head?.values.get(key)) continue;
    warnings.push(ignored(escapeUntrusted(head?.file ?? options.fileName), key, live, base !== undefined));
  }
  return { files, warnings };
}

/**
 * The configuration file as the base commit has it, through the Git port: the named file (relative to
 * `folder`), else the first default file the commit has. `commit` undefined: the run does not know its base.
 */
export async function readBaseConfig(
  git: Pick<Git, "fileAt">,
  options: { folder: string; commit: string | undefined; named: string | undefined },
): Promise<{ fileName: string; base: BaseConfigText }> {
  const { folder, commit, named } = options;
  const candidates = named ? [named] : DEFAULT_CONFIG_FILES;
  const fileName = candidates[0] as string;
  if (commit === undefined)
    return {
      fileName,
      base: { ok: false, reason: "the run does not say which commit the pull or merge request is based on" },
    };
  for (const candidate of candidates) {
    const relative = path.relative(folder, path.resolve(folder, candidate));
    const answer = await git.fileAt(folder, commit, relative);
    if (!answer.ok) return { fileName: candidate, base: answer };
    if (answer.text !== undefined)
      return { fileName: candidate, base: { ok: true, commit, text: answer.text } };
  }
  return { fileName, base: { ok: true, commit, text: undefined } };
}

function readBase(
  text: BaseConfigText,
  fileName: string,
  unreadable: (reason: string) => void,
): ConfigFile | undefined {
  if (!text.ok) {
    unreadable(text.reason);
    return undefined;
  }
  if (text.text === undefined) return { file: `${fileName} at the base commit`, values: new Map() };
  try {
    return parseConfigFile(text.text, `${fileName} at the base commit ${text.commit.slice(0, 12)}`);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    unreadable(error.message);
    return undefined;
  }
}

function only(file: ConfigFile, keep: (key: string) => boolean): ConfigFile {
  return { file: file.file, values: new Map([...file.values].filter(([key]) => keep(key))) };
}

function unreadableBase(file: string, reason: string, keys: readonly string[]): string {
  const set =
    keys.length > 0 ? `, so what it sets for ${keys.map((k) => `'${k}'`).join(", ")} was ignored` : "";
  return `${file}: the base commit's configuration file cannot be read (${reason})${set}. On a pull or merge request, ${TRUST_SETTINGS.map((s) => `'${s}'`).join(", ")} come only from inputs, flags, variables or the base commit's file, never from the pull request's own. To use the base's file, the run needs the base commit (the pull or merge request's event names it; elsewhere \`--base-commit\`) in the checkout (actions/checkout: \`fetch-depth: 0\`; GitLab: \`GIT_DEPTH: 0\`).`;
}

function ignored(file: string, key: string, live: boolean, baseRead: boolean): string {
  const differs = baseRead ? "differs from the base commit's file" : "is set";
  const why = live
    ? "a run that publishes live on a pull or merge request takes nothing from the pull request's own file"
    : `on a pull or merge request '${key}' comes only from inputs, flags, variables or the base commit's file`;
  return `${file}: '${keyName(key)}' ${differs} and was ignored: ${why}. It takes effect once merged.`;
}
