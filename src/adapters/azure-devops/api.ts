import { createHostClient, type HostClient, type HostClientTuning } from "../review-host/host-client.ts";

export interface AzureDevOpsClientOptions extends HostClientTuning {
  /** `SYSTEM_COLLECTIONURI` as checked by the context, e.g. "https://dev.azure.com/fabrikam". */
  collectionUri: string;
  /** `SYSTEM_ACCESSTOKEN`: sent as a Bearer token to `collectionUri`'s origin only. */
  token: string;
  /** Epoch milliseconds after which no Azure DevOps request is sent or waited for. */
  deadline: number;
}

/** The REST API version every call but `connectionData` names (Azure DevOps answers 400 without one). */
export const API_VERSION = { "api-version": "7.1" } as const;

/**
 * A client of one Azure DevOps collection: every request goes below `collectionUri` (paths are joined
 * below it, redirects are not followed, and no address from an answer is ever called). A token the
 * service does not take is answered 401, thanks to `X-TFS-FedAuthRedirect: Suppress`, or else 203 with
 * the sign-in page: both fail as authentication errors.
 */
export function createAzureDevOpsClient(options: AzureDevOpsClientOptions): HostClient {
  const { collectionUri, token, ...rest } = options;
  return createHostClient({
    host: "Azure DevOps",
    baseUrl: collectionUri,
    headers: { authorization: `Bearer ${token}`, "x-tfs-fedauthredirect": "Suppress" },
    signInStatuses: [203],
    secrets: [token],
    ...rest,
  });
}
