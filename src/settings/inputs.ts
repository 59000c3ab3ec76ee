import { InputError } from "../core/plan/input-error.ts";
import type {
  OrganizationRef,
  RequestedMode,
  ReviewBudget,
  RunSettings,
  SourceMode,
} from "../core/plan/run-settings.ts";
import { pathParameterProblem } from "../core/service/path-parameter.ts";
import { parseSlugMapping } from "../core/slugs/mapping.ts";
import { Redactor } from "../core/text/redact.ts";
import { numericDefault, SETTINGS, setting } from "./settings-table.ts";
import { readShapingValue, SHAPING_INPUT } from "./shaping-value.ts";

/** Reads one input as the runner passes it (trimmed; "" when absent). */
export type InputReader = (name: string) => string;

const MODES: readonly RequestedMode[] = ["auto", "publish", "preview", "check"];
const SOURCES: readonly SourceMode[] = ["text", "url"];
const MAX_TIMEOUT_SECONDS = 6 * 60 * 60;
const MAX_CONCURRENCY = 64;
const MAX_PRUNE_LIMIT = 10_000;
/** 64 GiB: more than any runner has, so a typo of a unit is refused rather than tried. */
const MAX_REVIEW_HEAP_MB = 64 * 1024;
const MIN_REVIEW_HEAP_MB = 8;
const MAX_REVIEW_TIMEOUT_MS = MAX_TIMEOUT_SECONDS * 1000;

/** The inputs that hold secrets; every other input is a setting, which must never hold one. */
const SECRET_INPUTS = SETTINGS.filter((s) => s.action && s.secret).map((s) => s.name);

/** Every input of action.yml that is a setting, not a secret. */
export const SETTING_INPUTS: readonly string[] = SETTINGS.filter((s) => s.action && !s.secret).map(
  (s) => s.name,
);

/**
 * Refuses a setting whose value holds a secret input's value, whole or a piece of 8+ characters (the
 * redactor's rule): a setting is written where anyone can read it — the comment's hidden marker, the
 * slugs, the summary — and redacting it there would change what the run does. The error names the
 * setting and the secret's input, never the value.
 */
export function refuseSecretsInSettings(readInput: InputReader): void {
  for (const secretInput of SECRET_INPUTS) {
    const secret = readInput(secretInput);
    if (!secret) continue;
    const redactor = new Redactor([secret]);
    for (const input of SETTING_INPUTS) {
      if (redactor.contains(readInput(input))) {
        throw new InputError(
          input,
          `holds the value of the '${secretInput}' input (whole, or a piece of 8 or more of its characters). A setting is shown where anyone can read it (the pull request comment and its hidden marker, slugs, the log), so it must never hold a secret: remove it from '${input}'.`,
        );
      }
    }
  }
}

/**
 * Parses and checks every input at once, before any request: the run stops here on the first bad
 * input, with a message that names it. A setting that holds a token is refused first, by name. `tokenOptional` is for runs that may lack secrets (a fork's pull
 * request): the token may then be missing, and the caller decides what to skip.
 */
export function readConfig(
  readInput: InputReader,
  options: {
    tokenOptional?: boolean;
    /** What to do without a token, in the host's words; the Action's by default. */
    tokenHint?: string;
  } = {},
): RunSettings {
  // First, so that no message below can quote a value that holds a token.
  refuseSecretsInSettings(readInput);
  const mode = oneOf("mode", readInput("mode") || setting("mode").default, MODES);
  const token = readInput("token") || undefined;
  if (!token && mode !== "check" && !options.tokenOptional) {
    throw new InputError(
      "token",
      `is required to publish. ${
        options.tokenHint ??
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression shown to the user
        "Pass a GitBook API token from a repository secret (for example `token: ${{ secrets.GITBOOK_TOKEN }}`), or use `mode: check` to validate without publishing."
      }`,
    );
  }
  const githubToken = readInput("github-token") || undefined;
  const slugPrefix = readSlugPrefix(readInput("slug-prefix"));
  const prune = readBoolean("prune", readInput("prune"));
  if (prune && slugPrefix === undefined) {
    throw new InputError(
      "prune",
      "needs 'slug-prefix': only specs under the run's own prefix are ever pruned, so that a repository never deletes specs it does not own. Set 'slug-prefix' (for example the repository's name), publish once, then enable 'prune'.",
    );
  }
  return {
    token,
    organization: readOrganization(readInput, token !== undefined),
    files: readLines(readInput("files")),
    exclude: readLines(readInput("exclude")) ?? [],
    slugMapping: readSlugMapping(readInput("slugs")),
    slugPrefix,
    source: oneOf("source", readInput("source") || setting("source").default, SOURCES),
    mode,
    wait: readBoolean("wait", readInput("wait")),
    timeoutSeconds: readInteger("timeout", readInput("timeout"), 1, MAX_TIMEOUT_SECONDS),
    concurrency: readInteger("concurrency", readInput("concurrency"), 1, MAX_CONCURRENCY),
    apiUrl: readApiUrl(readInput("api-url")),
    comment: readBoolean("comment", readInput("comment")),
    commentKey: readCommentKey(readInput("comment-key")),
    githubToken,
    prune,
    pruneLimit: readInteger("prune-limit", readInput("prune-limit"), 1, MAX_PRUNE_LIMIT),
    force: readBoolean("force", readInput("force")),
    cacheFile: readCacheFile(readInput("cache-file")),
    failOnBreaking: readBoolean("fail-on-breaking", readInput("fail-on-breaking")),
    failOnUnreviewed: readBoolean("fail-on-unreviewed", readInput("fail-on-unreviewed")),
    breakingAllowed: readLines(readInput("breaking-allowed")) ?? [],
    shaping: readShapingValue(readInput(SHAPING_INPUT)),
    strict: readBoolean("strict", readInput("strict")),
    reviewBudget: readReviewBudget(readInput),
  };
}

/**
 * The API change review's budget of one comparison (`review-heap-mb`, `review-timeout-ms`), each the
 * table's default when not given; a value out of range is an {@link InputError} naming the setting.
 */
export function readReviewBudget(readInput: InputReader): ReviewBudget {
  return {
    heapMb: readInteger(
      "review-heap-mb",
      readInput("review-heap-mb"),
      MIN_REVIEW_HEAP_MB,
      MAX_REVIEW_HEAP_MB,
    ),
    timeoutMs: readInteger("review-timeout-ms", readInput("review-timeout-ms"), 1, MAX_REVIEW_TIMEOUT_MS),
  };
}

function readOrganization(readInput: InputReader, hasToken: boolean): OrganizationRef | undefined {
  const id = readInput("organization");
  const domain = readInput("organization-domain");
  if (id && domain) {
    throw new InputError(
      "organization",
      "and 'organization-domain' are both set; set exactly one of them (the organization id, or an email domain that resolves to it).",
    );
  }
  if (id) {
    if (/[\s/?#]/.test(id)) {
      throw new InputError(
        "organization",
        `${JSON.stringify(id)} is not an organization id (it contains spaces, '/', '?' or '#').`,
      );
    }
    const problem = pathParameterProblem(id);
    if (problem) {
      throw new InputError("organization", `${JSON.stringify(id)} is not an organization id: ${problem}.`);
    }
    return { kind: "id", id };
  }
  if (domain) {
    const normalized = domain.toLowerCase().replace(/^@/, "");
    if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(normalized)) {
      throw new InputError(
        "organization-domain",
        `${JSON.stringify(domain)} is not an email domain like "example.com".`,
      );
    }
    return { kind: "email-domain", domain: normalized };
  }
  if (hasToken) {
    throw new InputError(
      "organization",
      "is required: set 'organization' to your GitBook organization id, or 'organization-domain' to an email domain of the organization.",
    );
  }
  return undefined;
}

function oneOf<T extends string>(input: string, raw: string, allowed: readonly T[]): T {
  const value = raw.toLowerCase();
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new InputError(
    input,
    `${JSON.stringify(raw)} is not one of ${allowed.map((a) => `'${a}'`).join(", ")}.`,
  );
}

/** A boolean input; its default is the settings table's. */
function readBoolean(input: string, raw: string): boolean {
  if (raw === "") return setting(input).default === "true";
  if (/^(true|yes|on|1)$/i.test(raw)) return true;
  if (/^(false|no|off|0)$/i.test(raw)) return false;
  throw new InputError(input, `${JSON.stringify(raw)} is not a boolean; use 'true' or 'false'.`);
}

/** A whole-number input within bounds; its default is the settings table's. */
function readInteger(input: string, raw: string, min: number, max: number): number {
  if (raw === "") return numericDefault(input);
  if (!/^\d+$/.test(raw)) {
    throw new InputError(input, `${JSON.stringify(raw)} is not a whole number; expected ${min} to ${max}.`);
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw new InputError(input, `${value} is out of range; expected ${min} to ${max}.`);
  }
  return value;
}

function readLines(raw: string): string[] | undefined {
  const lines = raw
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  return lines.length > 0 ? lines : undefined;
}

function readSlugMapping(raw: string): ReadonlyMap<string, string> {
  if (raw.trim() === "") return new Map();
  return parseSlugMapping(raw);
}

function readCacheFile(raw: string): string | undefined {
  if (raw === "") return undefined;
  if (/[\0\r\n]/.test(raw)) {
    throw new InputError("cache-file", "is not a file path (it holds a line break or a NUL character).");
  }
  return raw;
}

function readSlugPrefix(raw: string): string | undefined {
  if (raw === "") return undefined;
  if (!/[a-z0-9]/i.test(raw)) {
    throw new InputError(
      "slug-prefix",
      `${JSON.stringify(raw)} has no letter or digit to build a slug from.`,
    );
  }
  return raw;
}

function readApiUrl(raw: string): string {
  const value = raw || setting("api-url").default;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(
      "api-url",
      `${JSON.stringify(value)} is not a URL; expected e.g. https://api.gitbook.com.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InputError("api-url", `${JSON.stringify(value)} must be an http(s) URL.`);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new InputError(
      "api-url",
      `${JSON.stringify(value)} is plain http: the token would travel in clear text. Use https (plain http is accepted only for a loopback address such as 127.0.0.1 or localhost, for a local emulator).`,
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new InputError(
      "api-url",
      "must not contain credentials, a query or a fragment; pass the token in 'token'.",
    );
  }
  return value.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** localhost, 127.0.0.0/8 and ::1: the machine itself, where plain http never leaves it. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "::1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function readCommentKey(raw: string): string {
  const value = raw || setting("comment-key").default;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value)) {
    throw new InputError(
      "comment-key",
      `${JSON.stringify(raw)} may only contain letters, digits, '.', '_' and '-' (1 to 64).`,
    );
  }
  return value;
}
