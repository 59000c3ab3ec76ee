import path from "node:path";

/** The repository's name: the part of `GITHUB_REPOSITORY` after `/`, else the workspace folder's name. */
export function repositoryNameFrom(
  env: { GITHUB_REPOSITORY?: string | undefined },
  workspace: string,
): string {
  const fromEnv = env.GITHUB_REPOSITORY?.split("/")[1]?.trim();
  if (fromEnv) return fromEnv;
  return path.basename(path.resolve(workspace));
}
