import type { ReviewKind } from "../slugs/preview.ts";

/**
 * The words and limits of the place that hosts the review comment: the renderer of that comment is
 * CI-neutral and takes one of these ({@link GITHUB_REVIEW}, {@link GITLAB_REVIEW}, {@link BITBUCKET_REVIEW}).
 */
export interface ReviewHost {
  /** Whose limits these are, in the note about rows left out: "GitHub", "GitLab". */
  readonly name: string;
  /** What a review is called there: "pull request", "merge request". */
  readonly reviewNoun: string;
  /** How the host writes a reference to review `number`: `#12` on GitHub, `!12` on GitLab. */
  reference(number: number): string;
  /** The longest comment body the host accepts, in characters. */
  readonly commentLimit: number;
  /** What the host calls the comment: "comment", "note". */
  readonly commentNoun: string;
  /** One sentence: where every API change of the review can be read when the comment leaves some out. */
  readonly everyChange: string;
  /** What the host calls the CI run that wrote the comment: "workflow run", "pipeline". */
  readonly runNoun: string;
  /** Which suffix the review's preview slugs carry (`-pr-<N>`, `-mr-<IID>`). */
  readonly reviewKind: ReviewKind;
  /**
   * Applied to every rendered line that holds text from outside (already escaped for Markdown), to
   * defuse what the host would still act on. The identity on GitHub.
   */
  defuse(line: string): string;
}

/** GitHub rejects comment bodies longer than this many characters. */
export const GITHUB_COMMENT_LIMIT = 65_536;

/**
 * GitLab rejects notes longer than this many characters (`Gitlab::Database::MAX_TEXT_SIZE_LIMIT`, the
 * validation on `Note#note`). GitLab counts code points; a JavaScript length counts UTF-16 units, never
 * fewer, so a body within this length is within GitLab's limit.
 */
export const GITLAB_NOTE_LIMIT = 1_000_000;

/**
 * Bitbucket Cloud documents no limit; pull request comments over 32,767 characters are refused
 * ("less than 32768 characters", reported by ovh/cds#5601), and pr-agent keeps them under 31,000.
 */
export const BITBUCKET_COMMENT_LIMIT = 31_000;

export const GITHUB_REVIEW: ReviewHost = {
  name: "GitHub",
  reviewNoun: "pull request",
  reference: (number) => `#${number}`,
  commentLimit: GITHUB_COMMENT_LIMIT,
  commentNoun: "comment",
  everyChange:
    "The job summary of the workflow run lists them all (with the GitHub Action), and so does `gitbook-openapi diff <base file> <head file>`.",
  runNoun: "workflow run",
  reviewKind: "pull-request",
  defuse: (line) => line,
};

export const GITLAB_REVIEW: ReviewHost = {
  name: "GitLab",
  reviewNoun: "merge request",
  reference: (number) => `!${number}`,
  commentLimit: GITLAB_NOTE_LIMIT,
  commentNoun: "note",
  everyChange:
    "`gitbook-openapi diff <base file> <head file>` lists them all, and each spec's `changes` in `gitbook-openapi sync --json` holds them.",
  runNoun: "pipeline",
  reviewKind: "merge-request",
  defuse: defuseGitLabLine,
};

export const BITBUCKET_REVIEW: ReviewHost = {
  name: "Bitbucket",
  reviewNoun: "pull request",
  reference: (number) => `#${number}`,
  commentLimit: BITBUCKET_COMMENT_LIMIT,
  commentNoun: "comment",
  everyChange: GITLAB_REVIEW.everyChange,
  runNoun: "pipeline",
  reviewKind: "pull-request",
  defuse: (line) => line,
};

/** A zero-width space: between a reference's sigil and its name, it keeps GitLab from matching it. */
const BREAK = "&#8203;";

/**
 * GitLab finds references in the text of the rendered note, after Markdown escapes and HTML entities are
 * undone, so `\#12`, `\!12` and `&#64;user` (how `escapeText` in `markdown.ts` writes outside text) would still
 * cross-reference issue 12, merge request 12 and mention (notify) a user. A zero-width space after the
 * escaped sigil breaks each such match; our own unescaped text (`!12` in the headline) is left alone.
 * A line that starts with `/` would be read as a quick action (`/merge`, `/close`): its `/` is written
 * as an entity. Text from outside never starts a line (escaping folds line breaks), so this is a second
 * guard.
 */
export function defuseGitLabLine(line: string): string {
  return line
    .replace(/\\([#!~])/g, `\\$1${BREAK}`)
    .replace(/&#64;|&amp;/g, (entity) => `${entity}${BREAK}`)
    .replace(/^(\s*)\//, "$1&#47;");
}

/**
 * Azure DevOps refuses a pull request comment longer than this many characters ("A discussion comment
 * cannot be longer than 150000 characters", docs/design/azure-devops.md).
 */
export const AZURE_DEVOPS_COMMENT_LIMIT = 150_000;

export const AZURE_DEVOPS_REVIEW: ReviewHost = {
  name: "Azure DevOps",
  reviewNoun: "pull request",
  reference: (number) => `!${number}`,
  commentLimit: AZURE_DEVOPS_COMMENT_LIMIT,
  commentNoun: "comment",
  everyChange:
    "`gitbook-openapi diff --base <target branch>` lists them all, and each spec's `changes` in `gitbook-openapi sync --json` holds them.",
  runNoun: "pipeline run",
  reviewKind: "pull-request",
  defuse: defuseAzureDevOpsLine,
};

/**
 * Azure DevOps links `#12` to work item 12 and `!12` to pull request 12 in the rendered comment, escapes
 * undone; a zero-width space after the escaped sigil breaks the link, as on GitLab. A mention needs an
 * identity's GUID (`@<…>`), which `&#64;` never forms.
 */
export function defuseAzureDevOpsLine(line: string): string {
  return line.replace(/\\([#!])/g, `\\$1${BREAK}`);
}
