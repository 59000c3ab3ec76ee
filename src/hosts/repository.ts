/**
 * Which repository a run publishes from, as the CI it runs in names it: the repository's name (a spec at
 * the workspace's root is named after it, docs/publishing.md "Slugs") and its identity (`host/path`, with the slug
 * prefix the owner in every publish record, docs/design/ownership.md). One table for every CI, read by both
 * hosts; docs/publishing.md's "Repository identity" table is this one in words.
 *
 * The CI's own variables first, then the checkout's `origin` remote; the checkout folder's name only when
 * nothing else names the repository, and then with a warning (a folder is named by the CI, not by the
 * repository: `s` on Azure Pipelines, `project` on CircleCI, `build` on Bitbucket).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { repositoryIdentity } from "../core/ownership/ownership.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** One CI's variables: the repository's URL, and its name where the CI gives it apart from the URL. */
interface CiRepositoryVariables {
  ci: string;
  /** The run is in this CI (a variable the CI always sets); undefined: the URL variable is enough. */
  detect?: (env: Env) => boolean;
  url: (env: Env) => string | undefined;
  /** The repository's name ("widgets" of "acme/widgets"); else the URL's last part. */
  name?: (env: Env) => string | undefined;
  /** How a message names the variables read. */
  variables: string;
}

/**
 * In the order they are tried. Each variable as its CI documents it (docs/publishing.md, "Repository identity"):
 * GitHub Actions (docs.github.com, "Variables reference"), GitLab CI (docs.gitlab.com, "Predefined CI/CD
 * variables reference"), Azure Pipelines (learn.microsoft.com, "Use predefined variables"), CircleCI
 * (circleci.com/docs, "Project values and variables"), Bitbucket Pipelines (support.atlassian.com,
 * "Variables and secrets"), Jenkins' git plugin (plugins.jenkins.io/git, "Environment variables"),
 * Buildkite (buildkite.com/docs, "Environment variables").
 */
export const CI_REPOSITORY_VARIABLES: readonly CiRepositoryVariables[] = [
  {
    ci: "GitHub Actions",
    detect: (env) => env.GITHUB_ACTIONS === "true",
    url: (env) =>
      /^[\w.-]+\/[\w.-]+$/.test(env.GITHUB_REPOSITORY ?? "")
        ? `${(env.GITHUB_SERVER_URL || "https://github.com").replace(/\/+$/, "")}/${env.GITHUB_REPOSITORY}`
        : undefined,
    name: (env) => env.GITHUB_REPOSITORY,
    variables: "GITHUB_SERVER_URL and GITHUB_REPOSITORY",
  },
  {
    ci: "GitLab CI",
    detect: (env) => env.GITLAB_CI === "true",
    url: (env) =>
      env.CI_PROJECT_URL ||
      (env.CI_SERVER_URL && env.CI_PROJECT_PATH ? `${env.CI_SERVER_URL}/${env.CI_PROJECT_PATH}` : undefined),
    name: (env) => env.CI_PROJECT_NAME || env.CI_PROJECT_PATH,
    variables: "CI_PROJECT_URL (else CI_SERVER_URL and CI_PROJECT_PATH), CI_PROJECT_NAME",
  },
  {
    ci: "Azure Pipelines",
    // For TFVC the URI is the collection's (`https://dev.azure.com/fabrikam/`), shared by every project.
    url: (env) =>
      env.BUILD_REPOSITORY_PROVIDER === "TfsVersionControl" ? undefined : env.BUILD_REPOSITORY_URI,
    name: (env) => env.BUILD_REPOSITORY_NAME,
    variables: "BUILD_REPOSITORY_URI, BUILD_REPOSITORY_NAME (not for TFVC)",
  },
  {
    ci: "CircleCI",
    url: (env) => env.CIRCLE_REPOSITORY_URL,
    name: (env) => env.CIRCLE_PROJECT_REPONAME,
    variables: "CIRCLE_REPOSITORY_URL, CIRCLE_PROJECT_REPONAME",
  },
  {
    ci: "Bitbucket Pipelines",
    url: (env) => env.BITBUCKET_GIT_HTTP_ORIGIN,
    name: (env) => env.BITBUCKET_REPO_SLUG,
    variables: "BITBUCKET_GIT_HTTP_ORIGIN, BITBUCKET_REPO_SLUG",
  },
  { ci: "Jenkins", url: (env) => env.GIT_URL, variables: "GIT_URL" },
  { ci: "Buildkite", url: (env) => env.BUILDKITE_REPO, variables: "BUILDKITE_REPO" },
];

export interface RunRepository {
  /** Names a spec at the workspace's root. */
  name: string;
  /** `host/path`, lowercased, without credentials (see `repositoryIdentity`); undefined when nothing says. */
  identity: string | undefined;
  /** Where they came from: "GITHUB_SERVER_URL and GITHUB_REPOSITORY (GitHub Actions)", "the origin remote", … */
  source: string;
  /**
   * Set when nothing names the repository, so its name is the checkout folder's: a warning saying so, to
   * be given when a spec is named after it.
   */
  guessedName?: string;
}

/**
 * The repository of a run in `workspace`: the CI's variables, else `origin(workspace)` (the checkout's
 * `origin` remote URL), else the folder's name.
 */
export function runRepository(
  env: Env,
  workspace: string,
  origin: (workspace: string) => string | undefined = originUrl,
): RunRepository {
  for (const row of CI_REPOSITORY_VARIABLES) {
    if (row.detect && !row.detect(env)) continue;
    const identity = repositoryIdentity(row.url(env));
    if (!identity) continue;
    return {
      name: lastPart(row.name?.(env)) ?? lastPart(identity) ?? identity,
      identity,
      source: `${row.variables} (${row.ci})`,
    };
  }
  // A CI that names the repository but gives no URL we can read (GitLab without CI_PROJECT_URL): its
  // name, with the origin remote's identity.
  const named = CI_REPOSITORY_VARIABLES.find(
    (row) => (!row.detect || row.detect(env)) && lastPart(row.name?.(env)),
  );
  const identity = repositoryIdentity(origin(workspace));
  const name = lastPart(named?.name?.(env)) ?? (identity && lastPart(identity));
  if (identity || name) {
    const from = named ? `the ${named.ci} variables` : "the origin remote";
    return {
      name: name ?? identity ?? "",
      identity,
      source: identity && named ? `${from} and the origin remote` : from,
    };
  }
  const folder = path.basename(path.resolve(workspace));
  return {
    name: folder,
    identity: undefined,
    source: "the checkout folder's name",
    guessedName: `No CI variable of the "Repository identity" table (docs/publishing.md) and no \`origin\` remote names the repository, so a spec at the workspace's root is named after the checkout folder, '${folder}'. Set the \`origin\` remote (\`git remote add origin <url>\`), or give the spec its slug with \`slugs\`.`,
  };
}

/** The last part of a repository's name or path ("widgets" of "acme/widgets"); undefined when blank. */
function lastPart(name: string | undefined): string | undefined {
  return name?.trim().split("/").filter(Boolean).pop() || undefined;
}

/** The checkout's `origin` remote URL, as git has it; undefined without git, a repository or the remote. */
export function originUrl(workspace: string): string | undefined {
  try {
    return execFileSync("git", ["-C", workspace, "config", "--get", "remote.origin.url"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 10_000,
    });
  } catch {
    return undefined;
  }
}
