/**
 * The `sync` command's flags and environment variables, turned into the action's inputs: the core reads
 * its settings with `readConfig(readInput, …)` (src/settings/inputs.ts) keyed by the input names of
 * action.yml, so the CLI hands it a {@link InputReader} and a {@link SyncSettings.settingName} that says
 * how the user wrote each setting, for messages ("--slug-prefix", or "GITBOOK_SLUG_PREFIX" when the
 * value came from the environment). Flags win over variables, and both over the configuration file.
 * The flags' reading is in ./sync-inputs.ts (re-exported here, and light: the read commands use it
 * without loading the configuration file's YAML reader); this module adds what a `sync` run reads.
 */
import path from "node:path";
import { type ConfigFile, readConfigFile } from "../../settings/config-file.ts";
import { UsageError } from "./errors.ts";
import type { Env } from "./streams.ts";
import {
  createInputReader,
  type Resolved,
  type SyncFlags,
  type SyncSettings,
  type TokenSetting,
} from "./sync-inputs.ts";

export * from "./sync-inputs.ts";

export function buildSyncSettings(
  flags: SyncFlags,
  env: Env,
  options: { cwd: string; token?: TokenSetting },
): SyncSettings {
  const workspace = pick(flags.workspace, env, "GITBOOK_WORKSPACE");
  const workspaceFolder = path.resolve(options.cwd, workspace?.value ?? ".");
  const named = pick(flags.config, env, "GITBOOK_CONFIG");
  const folder = named ? options.cwd : workspaceFolder;
  const head = readConfigFile(folder, named?.value);
  const junit = pick(flags.junit, env, "GITBOOK_JUNIT");
  const mergeRequest = pick(flags.mergeRequest, env, "GITBOOK_MERGE_REQUEST");
  const withFiles = (files: readonly ConfigFile[]): SyncSettings => ({
    ...createInputReader(flags, env, options.token, files),
    workspace: workspaceFolder,
    cwd: options.cwd,
    json: flags.json === true || /^(1|true|yes)$/i.test(env.GITBOOK_JSON ?? ""),
    quiet: flags.quiet === true || /^(1|true|yes)$/i.test(env.GITBOOK_QUIET ?? ""),
    junitFile: junit && path.resolve(options.cwd, junit.value),
    junitSetting: junit?.setting,
    mergeRequest: readMergeRequest(mergeRequest),
    config: { head, folder, named: named?.value, withFiles },
  });
  return withFiles(head ? [head] : []);
}

/** The flag's value, else the variable's; undefined when neither is set. */
function pick(flag: string | undefined, env: Env, name: string): Resolved | undefined {
  const fromFlag = flag?.trim();
  if (fromFlag) return { value: fromFlag, setting: `--${kebab(name)}` };
  const fromEnv = env[name]?.trim();
  return fromEnv ? { value: fromEnv, setting: name } : undefined;
}

function kebab(envName: string): string {
  return envName
    .replace(/^GITBOOK_/, "")
    .toLowerCase()
    .replaceAll("_", "-");
}

function readMergeRequest(given: Resolved | undefined): number | undefined {
  if (given === undefined) return undefined;
  if (!/^[1-9]\d{0,9}$/.test(given.value)) {
    throw new UsageError(
      given.setting,
      `${JSON.stringify(given.value)} is not a merge request number (IID).`,
    );
  }
  return Number(given.value);
}
