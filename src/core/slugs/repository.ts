import path from "node:path";

/** The repository's name as the CI names it ("widgets" of "acme/widgets"), else the workspace folder's name. */
export function repositoryNameFrom(repository: string | undefined, workspace: string): string {
  const fromCi = repository?.split("/").pop()?.trim();
  if (fromCi) return fromCi;
  return path.basename(path.resolve(workspace));
}
