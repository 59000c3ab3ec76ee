import { InputError } from "../../core/plan/input-error.ts";
import type { RunContext } from "./context.ts";

/**
 * For `source: url`: the raw file at this commit on the GitHub server the workflow runs on, which the
 * service fetches itself (public repositories only).
 */
export function rawFileUrlBuilder(context: RunContext): (file: string) => string {
  const repository = context.repository;
  if (!repository || !context.sha) {
    throw new InputError(
      "source",
      "'url' needs GITHUB_REPOSITORY and GITHUB_SHA to build the file's raw URL; run it in a GitHub workflow or use 'text'.",
    );
  }
  if (context.repositoryVisibility === "private") {
    throw new InputError(
      "source",
      `'url' makes GitBook fetch each spec from ${context.serverUrl}/${repository.fullName}, which it cannot do for a private repository; use 'text' (the default), which uploads the bundled document.`,
    );
  }
  const sha = context.pullRequest?.headSha || context.sha;
  const base = `${context.serverUrl}/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.name)}/raw/${sha}`;
  return (file) => `${base}/${file.split("/").map(encodeURIComponent).join("/")}`;
}
