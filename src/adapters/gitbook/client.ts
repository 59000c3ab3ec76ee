/**
 * Typed client of GitBook's OpenAPI specification hosting (`/v1/orgs/{org}/openapi...`) and of the
 * organization lookup by email domain. Arguments are checked before anything is sent; responses are
 * checked where they enter (`src/core/service/parse.ts`); failures are typed errors (`src/core/service/errors.ts`).
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Dispatcher } from "undici";
import { InvalidArgumentError, UnexpectedResponseError } from "../../core/service/errors.ts";
import {
  type Parser,
  parseOrganizationList,
  parseSpec,
  parseSpecPage,
  parseSpecVersion,
  parseSpecVersionContent,
  parseVersionPage,
} from "../../core/service/parse.ts";
import type {
  CallOptions,
  Organization,
  Page,
  PageOptions,
  Spec,
  SpecSource,
  SpecVersion,
  SpecVersionContent,
} from "../../core/service/types.ts";
import { RESPONSE_CAPS, type ResponseCap } from "../http/limits.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../http/retry.ts";
import { type Call, type RetryEvent, Transport } from "../http/transport.ts";
import { EnvHttpProxyAgent } from "../http/undici.ts";
import { DEFAULT_USER_AGENT } from "../http/user-agent.ts";
import {
  assertIdentifier,
  assertLimit,
  assertPageOptions,
  assertSlug,
  assertSpecSource,
  assertToken,
  normalizeBaseUrl,
} from "./validate.ts";

export const DEFAULT_BASE_URL = "https://api.gitbook.com";
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ClientOptions {
  token: string;
  /** Default `https://api.gitbook.com`; every path is under `/v1`. */
  baseUrl?: string;
  /** Default `gitbook-openapi-action/<version>`. */
  userAgent?: string;
  /** Per attempt, default 30 000 ms. */
  requestTimeoutMs?: number;
  /**
   * Epoch milliseconds (on `now`'s clock) by which every call ends: no attempt or retry starts after
   * it, and an attempt in flight is cut at it ({@link GitBookDeadlineError}). Default: none.
   */
  deadline?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * Default: one undici `EnvHttpProxyAgent` per client (honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY,
   * keeps connections alive). An injected dispatcher is not closed by {@link GitBookClient.close}.
   */
  dispatcher?: Dispatcher;
  onRetry?: (event: RetryEvent) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

function positiveNumber(
  name: string,
  value: number | undefined,
  fallback: number,
  allowZero = false,
): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new InvalidArgumentError(
      name,
      `The client option ${name} must be a ${allowZero ? "non-negative" : "positive"} number.`,
    );
  }
  return value;
}

function resolvePolicy(retry: Partial<RetryPolicy> | undefined): RetryPolicy {
  const d = DEFAULT_RETRY_POLICY;
  return {
    maxRetries: Math.floor(positiveNumber("retry.maxRetries", retry?.maxRetries, d.maxRetries, true)),
    baseDelayMs: positiveNumber("retry.baseDelayMs", retry?.baseDelayMs, d.baseDelayMs, true),
    maxDelayMs: positiveNumber("retry.maxDelayMs", retry?.maxDelayMs, d.maxDelayMs, true),
    maxRetryAfterMs: positiveNumber("retry.maxRetryAfterMs", retry?.maxRetryAfterMs, d.maxRetryAfterMs, true),
  };
}

const segment = encodeURIComponent;

/** The call's own deadline, checked before anything is sent. */
function deadlineOf(options: CallOptions | undefined): number | undefined {
  const deadline = options?.deadline;
  if (deadline === undefined) return undefined;
  if (typeof deadline !== "number" || !Number.isFinite(deadline)) {
    throw new InvalidArgumentError(
      "deadline",
      "The call option deadline must be a finite number of epoch milliseconds.",
    );
  }
  return deadline;
}

export class GitBookClient {
  readonly #transport: Transport;
  readonly #ownedDispatcher: Dispatcher | undefined;
  #closed = false;

  constructor(options: ClientOptions) {
    assertToken(options.token);
    const baseUrl = normalizeBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
    const requestTimeoutMs = positiveNumber(
      "requestTimeoutMs",
      options.requestTimeoutMs,
      DEFAULT_REQUEST_TIMEOUT_MS,
    );
    const policy = resolvePolicy(options.retry);
    this.#ownedDispatcher = options.dispatcher === undefined ? new EnvHttpProxyAgent() : undefined;
    this.#transport = new Transport({
      token: options.token,
      baseUrl,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      requestTimeoutMs,
      deadline: options.deadline,
      policy,
      dispatcher: options.dispatcher ?? (this.#ownedDispatcher as Dispatcher),
      onRetry: options.onRetry,
      sleep: options.sleep ?? ((ms) => delay(ms)),
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    });
  }

  async listSpecs(orgId: string, page?: PageOptions, options?: CallOptions): Promise<Page<Spec>> {
    assertIdentifier("organization id", orgId);
    assertPageOptions(page);
    return this.#value({
      method: "GET",
      path: `/orgs/${segment(orgId)}/openapi`,
      query: { page: page?.page, limit: page?.limit },
      subject: { operation: "listOpenAPISpecs", orgId },
      parse: parseSpecPage,
      cap: RESPONSE_CAPS.specPage,
      deadline: deadlineOf(options),
    });
  }

  /** Every specification, page after page; `deadline` bounds each page's call. */
  iterateSpecs(orgId: string, options?: { limit?: number } & CallOptions): AsyncIterableIterator<Spec> {
    assertIdentifier("organization id", orgId);
    assertLimit(options?.limit);
    deadlineOf(options);
    return this.#iterate((page) => this.listSpecs(orgId, { ...page, limit: options?.limit }, options));
  }

  async createSpec(orgId: string, slug: string, source: SpecSource): Promise<Spec> {
    assertIdentifier("organization id", orgId);
    assertSlug(slug);
    assertSpecSource(source);
    return this.#value({
      method: "POST",
      path: `/orgs/${segment(orgId)}/openapi`,
      body: { slug, source },
      subject: { operation: "createOpenAPISpec", orgId, slug },
      parse: parseSpec,
      cap: RESPONSE_CAPS.spec,
    });
  }

  async getSpec(orgId: string, slug: string, options?: CallOptions): Promise<Spec> {
    const call = this.#specCall("GET", orgId, slug, "getOpenAPISpecBySlug", parseSpec, RESPONSE_CAPS.spec);
    return this.#value({ ...call, deadline: deadlineOf(options) });
  }

  /** Creates the specification when the slug is new (`created: true`, 201) or updates it (200). */
  async putSpec(orgId: string, slug: string, source: SpecSource): Promise<{ spec: Spec; created: boolean }> {
    assertSpecSource(source);
    const call = this.#specCall(
      "PUT",
      orgId,
      slug,
      "createOrUpdateOpenAPISpecBySlug",
      parseSpec,
      RESPONSE_CAPS.spec,
    );
    const reply = await this.#transport.send({ ...call, body: { source } });
    return { spec: reply.value, created: reply.status === 201 };
  }

  async deleteSpec(orgId: string, slug: string): Promise<void> {
    await this.#value(
      this.#specCall("DELETE", orgId, slug, "deleteOpenAPISpecBySlug", null, RESPONSE_CAPS.unused),
    );
  }

  async listVersions(
    orgId: string,
    slug: string,
    page?: PageOptions,
    options?: CallOptions,
  ): Promise<Page<SpecVersion>> {
    assertPageOptions(page);
    const call = this.#specCall(
      "GET",
      orgId,
      slug,
      "listOpenAPISpecVersions",
      parseVersionPage,
      RESPONSE_CAPS.versionPage,
      "/versions",
    );
    return this.#value({
      ...call,
      query: { page: page?.page, limit: page?.limit },
      deadline: deadlineOf(options),
    });
  }

  /** Every version, page after page; `deadline` bounds each page's call. */
  iterateVersions(
    orgId: string,
    slug: string,
    options?: { limit?: number } & CallOptions,
  ): AsyncIterableIterator<SpecVersion> {
    assertIdentifier("organization id", orgId);
    assertSlug(slug);
    assertLimit(options?.limit);
    deadlineOf(options);
    return this.#iterate((page) =>
      this.listVersions(orgId, slug, { ...page, limit: options?.limit }, options),
    );
  }

  async getLatestVersion(orgId: string, slug: string, options?: CallOptions): Promise<SpecVersion> {
    const call = this.#specCall(
      "GET",
      orgId,
      slug,
      "getLatestOpenAPISpecVersion",
      parseSpecVersion,
      RESPONSE_CAPS.version,
      "/versions/latest",
    );
    return this.#value({ ...call, deadline: deadlineOf(options) });
  }

  async getLatestVersionContent(
    orgId: string,
    slug: string,
    options?: CallOptions,
  ): Promise<SpecVersionContent> {
    const call = this.#specCall(
      "GET",
      orgId,
      slug,
      "getLatestOpenAPISpecVersionContent",
      parseSpecVersionContent,
      RESPONSE_CAPS.versionContent,
      "/versions/latest/content",
    );
    return this.#value({ ...call, deadline: deadlineOf(options) });
  }

  async getVersion(
    orgId: string,
    slug: string,
    versionId: string,
    options?: CallOptions,
  ): Promise<SpecVersion> {
    assertIdentifier("version id", versionId);
    const call = this.#specCall(
      "GET",
      orgId,
      slug,
      "getOpenAPISpecVersionById",
      parseSpecVersion,
      RESPONSE_CAPS.version,
      `/versions/${segment(versionId)}`,
    );
    return this.#value({ ...call, subject: { ...call.subject, versionId }, deadline: deadlineOf(options) });
  }

  async getVersionContent(
    orgId: string,
    slug: string,
    versionId: string,
    options?: CallOptions,
  ): Promise<SpecVersionContent> {
    assertIdentifier("version id", versionId);
    const call = this.#specCall(
      "GET",
      orgId,
      slug,
      "getOpenAPISpecVersionContentById",
      parseSpecVersionContent,
      RESPONSE_CAPS.versionContent,
      `/versions/${segment(versionId)}/content`,
    );
    return this.#value({ ...call, subject: { ...call.subject, versionId }, deadline: deadlineOf(options) });
  }

  async listOrganizationsByEmailDomain(domain: string, options?: CallOptions): Promise<Organization[]> {
    assertIdentifier("email domain", domain);
    return this.#value({
      method: "GET",
      path: `/email-domains/${segment(domain)}/orgs`,
      subject: { operation: "getOrganizationsForEmailDomain", domain },
      parse: parseOrganizationList,
      cap: RESPONSE_CAPS.organizations,
      deadline: deadlineOf(options),
    });
  }

  /** Closes the connections of the dispatcher the client created; an injected one is left open. */
  async close(): Promise<void> {
    if (this.#ownedDispatcher === undefined || this.#closed) return;
    this.#closed = true;
    await this.#ownedDispatcher.close();
  }

  #specCall<T>(
    method: Call<T>["method"],
    orgId: string,
    slug: string,
    operation: string,
    parse: Parser<T> | null,
    cap: ResponseCap,
    suffix = "",
  ): Call<T> {
    assertIdentifier("organization id", orgId);
    assertSlug(slug);
    return {
      method,
      path: `/orgs/${segment(orgId)}/openapi/${segment(slug)}${suffix}`,
      subject: { operation, orgId, slug },
      parse,
      cap,
    };
  }

  async #value<T>(call: Call<T>): Promise<T> {
    return (await this.#transport.send(call)).value;
  }

  async *#iterate<T>(fetchPage: (page: { page?: string }) => Promise<Page<T>>): AsyncIterableIterator<T> {
    const seen = new Set<string>();
    let pageId: string | undefined;
    do {
      const page = await fetchPage(pageId === undefined ? {} : { page: pageId });
      yield* page.items;
      pageId = page.next?.page;
      if (pageId !== undefined) {
        // A service that hands out the same page id twice would make this loop forever.
        if (seen.has(pageId)) throw this.#repeatedPage(pageId);
        seen.add(pageId);
      }
    } while (pageId !== undefined);
  }

  #repeatedPage(pageId: string): UnexpectedResponseError {
    return new UnexpectedResponseError({
      request: { method: "GET", url: "", path: "(pagination)", headers: {} },
      subject: { operation: "pagination" },
      status: 200,
      problem: `the page id ${JSON.stringify(pageId)} came back twice, the listing would never end`,
    });
  }
}
