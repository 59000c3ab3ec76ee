/** The repository the workflow runs in, from `GITHUB_REPOSITORY` ("owner/name"). */
export interface RepositoryRef {
  owner: string;
  name: string;
  /** "owner/name". */
  fullName: string;
}

/** The pull request a `pull_request` or `pull_request_target` event is about. */
export interface PullRequestContext {
  number: number;
  /** The event's activity type: "opened", "synchronize", "reopened", "closed", … */
  action: string;
  /**
   * The head branch lives in another repository than the base (a fork), or that repository was deleted.
   * Workflows triggered by a fork get no secrets and a read-only token.
   */
  isFork: boolean;
  headSha: string;
  /** The base commit the pull request is compared with (`pull_request.base.sha`); "" when absent. */
  baseSha: string;
}

/**
 * Everything the action needs to know about the workflow run that started it, read once from the
 * environment GitHub sets and the event payload file.
 */
export interface RunContext {
  /** `GITHUB_EVENT_NAME`, for example "push", "pull_request", "release". */
  eventName: string;
  /** Undefined when `GITHUB_REPOSITORY` is missing or not "owner/name" (a local run). */
  repository: RepositoryRef | undefined;
  /** `GITHUB_SHA`; empty when unset. */
  sha: string;
  /** `GITHUB_SERVER_URL` without a trailing slash; "https://github.com" by default. */
  serverUrl: string;
  /** `GITHUB_API_URL` without a trailing slash; on GitHub Enterprise Server "https://host/api/v3". */
  apiUrl: string;
  /** `GITHUB_WORKSPACE`; the current directory when unset. */
  workspace: string;
  /** Set for `pull_request` and `pull_request_target` events. */
  pullRequest?: PullRequestContext;
  /** From the payload's `repository.private`; "unknown" when the payload does not say. */
  repositoryVisibility: "public" | "private" | "unknown";
}

/** The event payload a run needs cannot be read or does not have the expected shape. */
export class EventPayloadError extends Error {
  override readonly name = "EventPayloadError";
}

const PULL_REQUEST_EVENTS = new Set(["pull_request", "pull_request_target"]);

/**
 * Reads the run context from `env` (normally `process.env`); `readFile` reads the payload file named by
 * `GITHUB_EVENT_PATH` as UTF-8 text. Throws {@link EventPayloadError} when a pull request event has no
 * payload or an invalid one.
 */
export function readRunContext(env: NodeJS.ProcessEnv, readFile: (path: string) => string): RunContext {
  const eventName = env.GITHUB_EVENT_NAME ?? "";
  const context: RunContext = {
    eventName,
    repository: parseRepository(env.GITHUB_REPOSITORY),
    sha: env.GITHUB_SHA ?? "",
    serverUrl: withoutTrailingSlash(nonEmpty(env.GITHUB_SERVER_URL) ?? "https://github.com"),
    apiUrl: withoutTrailingSlash(nonEmpty(env.GITHUB_API_URL) ?? "https://api.github.com"),
    workspace: nonEmpty(env.GITHUB_WORKSPACE) ?? process.cwd(),
    repositoryVisibility: "unknown",
  };
  if (!PULL_REQUEST_EVENTS.has(eventName)) {
    context.repositoryVisibility = visibilityOf(readOptionalPayload(env.GITHUB_EVENT_PATH, readFile));
    return context;
  }

  const payload = readPayload(env.GITHUB_EVENT_PATH, eventName, readFile);
  context.repositoryVisibility = visibilityOf(payload);
  context.pullRequest = parsePullRequest(payload, eventName);
  return context;
}

/** The payload of an event that does not need one; undefined when it is missing or unreadable. */
function readOptionalPayload(
  path: string | undefined,
  readFile: (path: string) => string,
): Record<string, unknown> | undefined {
  if (!path) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFile(path));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function visibilityOf(payload: Record<string, unknown> | undefined): RunContext["repositoryVisibility"] {
  const repository = payload?.repository;
  if (!isRecord(repository) || typeof repository.private !== "boolean") return "unknown";
  return repository.private ? "private" : "public";
}

function parseRepository(value: string | undefined): RepositoryRef | undefined {
  const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(value ?? "");
  if (!match?.[1] || !match[2]) return undefined;
  return { owner: match[1], name: match[2], fullName: `${match[1]}/${match[2]}` };
}

function readPayload(
  path: string | undefined,
  eventName: string,
  readFile: (path: string) => string,
): Record<string, unknown> {
  if (!path) {
    throw new EventPayloadError(
      `GITHUB_EVENT_PATH is not set, but a "${eventName}" event needs its payload. ` +
        "Run the action inside a GitHub Actions workflow, or set GITHUB_EVENT_PATH to the event's JSON file.",
    );
  }
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    throw new EventPayloadError(
      `Cannot read the event payload named by GITHUB_EVENT_PATH (${path}): ${describe(error)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EventPayloadError(
      `The event payload named by GITHUB_EVENT_PATH (${path}) is not valid JSON: ${describe(error)}`,
    );
  }
  if (!isRecord(parsed)) {
    throw new EventPayloadError(
      `The event payload named by GITHUB_EVENT_PATH (${path}) is not a JSON object.`,
    );
  }
  return parsed;
}

function parsePullRequest(payload: Record<string, unknown>, eventName: string): PullRequestContext {
  const pr = payload.pull_request;
  const where = `the "${eventName}" payload (GITHUB_EVENT_PATH)`;
  if (!isRecord(pr)) throw new EventPayloadError(`${where} has no "pull_request" object.`);
  const number = pr.number ?? payload.number;
  if (typeof number !== "number" || !Number.isInteger(number) || number <= 0) {
    throw new EventPayloadError(`${where} has no valid pull request number.`);
  }
  const head = isRecord(pr.head) ? pr.head : {};
  const base = isRecord(pr.base) ? pr.base : {};
  const headRepo = isRecord(head.repo) ? head.repo : undefined;
  const baseRepo = isRecord(base.repo) ? base.repo : undefined;
  const headFullName = headRepo && typeof headRepo.full_name === "string" ? headRepo.full_name : undefined;
  const baseFullName = baseRepo && typeof baseRepo.full_name === "string" ? baseRepo.full_name : undefined;
  return {
    number,
    action: typeof payload.action === "string" ? payload.action : "",
    isFork: headFullName === undefined || headFullName !== baseFullName,
    headSha: typeof head.sha === "string" ? head.sha : "",
    baseSha: typeof base.sha === "string" && /^[0-9a-f]{40,64}$/.test(base.sha) ? base.sha : "",
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
