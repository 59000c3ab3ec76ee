/**
 * How the command line names its settings in messages and help. A module of its own, light, so that
 * `--help` builds the help of `sync` without loading what `sync` runs (src/hosts/cli/sync-settings.ts).
 */

/** The long flag of a commander flag spec: `-o, --organization <id>` → `--organization`. */
export function longFlag(spec: string): string {
  return (/--[a-z-]+/.exec(spec) as RegExpExecArray)[0];
}

/** How messages name the token's sources. */
export const TOKEN_SETTINGS = "GITBOOK_TOKEN or --token-file";
