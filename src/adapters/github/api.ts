import { createHostClient, type HostClient, type HostClientTuning } from "../review-host/host-client.ts";

/** GitHub's REST API and its GraphQL endpoint, on one token; every function that talks to GitHub gets one. */
export interface GitHubClient {
  rest: HostClient;
  graphql: HostClient;
}

/** GitHub's calls retry as the shared client's default says. */
export type GitHubClientOptions = Omit<HostClientTuning, "retries">;

/**
 * A client for `apiUrl` (the run context's `GITHUB_API_URL`, so GitHub Enterprise Server works) and its
 * GraphQL endpoint. Requests carry the token as `Authorization: token …`, to `apiUrl`'s origin only, and
 * are bounded in time (the deadline) and size (each call's cap); see `review-thread/http.ts`.
 */
export function createGitHubClient(
  token: string,
  apiUrl: string,
  options: GitHubClientOptions,
): GitHubClient {
  const shared = {
    host: "GitHub",
    headers: {
      accept: "application/vnd.github+json",
      authorization: `token ${token}`,
      "x-github-api-version": "2022-11-28",
    },
    secrets: [token],
    ...options,
  };
  return {
    rest: createHostClient({ ...shared, baseUrl: apiUrl }),
    graphql: createHostClient({ ...shared, baseUrl: graphqlUrl(apiUrl) }),
  };
}

/** GitHub.com's API answers GraphQL at `/graphql`; GitHub Enterprise Server's `/api/v3` at `/api/graphql`. */
export function graphqlUrl(apiUrl: string): string {
  const base = apiUrl.replace(/\/+$/, "");
  return /\/api\/v3$/.test(base) ? base.replace(/\/api\/v3$/, "/api/graphql") : `${base}/graphql`;
}
