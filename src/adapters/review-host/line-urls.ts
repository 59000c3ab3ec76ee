/**
 * How each repository host names the web page of a line of a file at a commit (sources in
 * docs/design/code-quality.md). Every value from outside is checked or encoded here: the base address
 * must be a plain http(s) URL, the commit an id, and each path segment is percent-encoded; a file name
 * no repository can hold (an empty, `.` or `..` segment) gets no link, since a browser would resolve it.
 */
import type { LineUrl } from "../../core/report/line-links.ts";
import { httpUrl } from "../../core/report/markdown.ts";

const COMMIT = /^[0-9a-f]{7,64}$/i;

/**
 * `file`'s segments, each percent-encoded and joined by `/`; undefined for a name no repository holds
 * (an empty, `.` or `..` segment) or that has no UTF-8 form (a lone surrogate).
 */
export function encodedFilePath(file: string): string | undefined {
  const segments = file.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) return undefined;
  try {
    return segments.map(encodeURIComponent).join("/");
  } catch {
    return undefined;
  }
}

/** `text` without a trailing slash when it is an http(s) address with no credentials, query or fragment. */
function linkBase(text: string | undefined): string | undefined {
  const url = httpUrl(text);
  if (url === undefined) return undefined;
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") return undefined;
  return url.href.replace(/\/+$/, "");
}

/** A builder over `base`, or undefined when `base` is not a plain http(s) address. */
function builder(
  base: string | undefined,
  page: (base: string, commit: string, path: string, line: number) => string,
): LineUrl | undefined {
  const root = linkBase(base);
  if (root === undefined) return undefined;
  return (commit, file, line) => {
    const path = encodedFilePath(file);
    if (path === undefined || !COMMIT.test(commit) || !Number.isSafeInteger(line) || line < 1)
      return undefined;
    return page(root, commit, path, line);
  };
}

/** GitHub: `<server>/<owner>/<repo>/blob/<sha>/<path>#L<line>`. */
export function githubLineUrl(serverUrl: string, owner: string, name: string): LineUrl | undefined {
  return builder(
    `${serverUrl}/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`,
    (base, commit, path, line) => `${base}/blob/${commit}/${path}#L${line}`,
  );
}

/** GitLab: `<project url>/-/blob/<sha>/<path>#L<line>`. */
export function gitlabLineUrl(projectUrl: string | undefined): LineUrl | undefined {
  return builder(projectUrl, (base, commit, path, line) => `${base}/-/blob/${commit}/${path}#L${line}`);
}

/** Bitbucket Cloud: `<web>/<workspace>/<repo>/src/<sha>/<path>#lines-<line>`. */
export function bitbucketLineUrl(webUrl: string, workspace: string, repoSlug: string): LineUrl | undefined {
  return builder(
    `${webUrl}/${encodeURIComponent(workspace)}/${encodeURIComponent(repoSlug)}`,
    (base, commit, path, line) => `${base}/src/${commit}/${path}#lines-${line}`,
  );
}

/**
 * Azure Repos: `<collection>/<project>/_git/<repo>?path=/<path>&version=GC<sha>&line=<n>&lineEnd=<n+1>
 * &lineStartColumn=1&lineEndColumn=1`, the whole line selected (the path, `/`s included, one query value).
 */
export function azureReposLineUrl(
  collectionUri: string,
  project: string,
  repository: string,
): LineUrl | undefined {
  return builder(
    `${collectionUri.replace(/\/+$/, "")}/${encodeURIComponent(project)}/_git/${encodeURIComponent(repository)}`,
    (base, commit, path, line) =>
      `${base}?path=%2F${path.replaceAll("/", "%2F")}&version=GC${commit}&line=${line}&lineEnd=${line + 1}&lineStartColumn=1&lineEndColumn=1`,
  );
}
