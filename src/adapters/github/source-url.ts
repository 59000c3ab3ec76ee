import { InputError } from "../../core/plan/input-error.ts";
import type { SourceLinks } from "../../core/report/line-links.ts";
import { githubLineUrl } from "../review-host/line-urls.ts";
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

/**
 * The pull request comment's links to lines: blobs on the workflow's GitHub server, at the pull
 * request's head commit (the commit built, else); undefined without `GITHUB_REPOSITORY`.
 */
export function blobLineLinks(context: RunContext): SourceLinks | undefined {
  const repository = context.repository;
  const lineUrl = repository && githubLineUrl(context.serverUrl, repository.owner, repository.name);
  if (!lineUrl) return undefined;
  return { lineUrl, headCommit: context.pullRequest?.headSha || context.sha || undefined };
}
