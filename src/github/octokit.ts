import { getOctokit } from "@actions/github";

/** The Octokit instance `@actions/github` builds; every function that talks to GitHub receives one. */
export type GitHubClient = ReturnType<typeof getOctokit>;

/**
 * An authenticated REST client for `apiUrl` (the run context's `GITHUB_API_URL`, so GitHub Enterprise
 * Server works). The base URL is passed explicitly because `@actions/github` reads the environment only
 * once, when it is imported.
 */
export function createGitHubClient(token: string, apiUrl: string): GitHubClient {
  return getOctokit(token, { baseUrl: apiUrl });
}
