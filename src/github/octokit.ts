import { getOctokit } from "@actions/github";

/** The Octokit instance `@actions/github` builds; every function that talks to GitHub receives one. */
export type GitHubClient = ReturnType<typeof getOctokit>;

export interface GitHubClientOptions {
  /** Epoch milliseconds after which no GitHub request is sent or waited for. */
  deadline: number;
  /** Longest wait for one answer; default 30 s. */
  requestTimeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Thrown instead of a request that would start, or go on, past the deadline. */
export class GitHubDeadlineError extends Error {
  override readonly name = "GitHubDeadlineError";
}

const RETRIES = 2;
const RETRY_DELAY_MS = 1_000;

/**
 * An authenticated REST and GraphQL client for `apiUrl` (the run context's `GITHUB_API_URL`, so GitHub
 * Enterprise Server works). Every request is bounded: it is aborted after `requestTimeoutMs` or at the
 * deadline, whichever comes first, and a transient failure (a dropped connection, 429, 5xx) is retried
 * twice while time is left. A GitHub that never answers cannot hold the run past the deadline.
 */
export function createGitHubClient(
  token: string,
  apiUrl: string,
  options: GitHubClientOptions,
): GitHubClient {
  const octokit = getOctokit(token, { baseUrl: apiUrl });
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  octokit.hook.wrap("request", async (request, requestOptions) => {
    const call = `${requestOptions.method} ${requestOptions.url}`;
    for (let attempt = 0; ; attempt++) {
      const left = options.deadline - now();
      if (left <= 0) throw new GitHubDeadlineError(`${call} was not sent: the run's time is up.`);
      const signal = AbortSignal.timeout(Math.min(requestTimeoutMs, left));
      try {
        // Set in place: Octokit drops a `request` object passed as a copy.
        requestOptions.request = Object.assign(requestOptions.request ?? {}, { signal });
        return await request(requestOptions);
      } catch (error) {
        if (signal.aborted) {
          throw new GitHubDeadlineError(
            `${call} got no answer within ${Math.round(Math.min(requestTimeoutMs, left) / 1000)} s.`,
            { cause: error },
          );
        }
        if (attempt >= RETRIES || !isTransient(error) || options.deadline - now() < RETRY_DELAY_MS)
          throw error;
        await sleep(RETRY_DELAY_MS * (attempt + 1));
      }
    }
  });
  return octokit;
}

/** Octokit reports a connection that failed or dropped as status 500, like a server error. */
function isTransient(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status !== "number" || status === 429 || status >= 500;
}
