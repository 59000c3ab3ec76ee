import { createHostClient, type HostClient, type HostClientTuning } from "../review-host/host-client.ts";

export interface GitLabClientOptions extends HostClientTuning {
  /** `CI_API_V4_URL` as checked by the context, for example "https://gitlab.com/api/v4". */
  apiUrl: string;
  /** Sent as `PRIVATE-TOKEN`, to `apiUrl`'s origin only; never written into a message. */
  token: string;
  /** Epoch milliseconds after which no GitLab request is sent or waited for. */
  deadline: number;
}

/** GitLab's REST API v4 on one token. */
export type GitLabClient = HostClient;

/**
 * A client of GitLab's API v4: every request goes to `apiUrl` (the token never leaves that origin: paths
 * are joined below it, and redirects are not followed) and is bounded in time (the deadline) and size
 * (each call's cap). GET, PUT and DELETE are retried on a transient failure while time is left; a POST
 * only when it was never sent, else it fails with `mayHaveApplied` (see `review-thread/http.ts`).
 */
export function createGitLabClient(options: GitLabClientOptions): GitLabClient {
  const { apiUrl, token, ...rest } = options;
  return createHostClient({
    host: "GitLab",
    baseUrl: apiUrl,
    headers: { "private-token": token },
    secrets: [token],
    ...rest,
  });
}
