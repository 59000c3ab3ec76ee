import type { Organization } from "../../src/core/service/types.ts";
import { completeOrganization, defaultOrganization } from "./organizations.ts";

export interface EmulatorOptions {
  /** Default "127.0.0.1". */
  host?: string;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** The bearer token accepted; default "dev-token". */
  token?: string;
  /** Seeded organizations (missing fields are filled in); default: the single organization "demo-org". */
  organizations?: Organization[];
  /** Organizations that exist but the token cannot see: their routes answer 403. */
  forbiddenOrganizations?: string[];
  /**
   * Simulated processing durations; defaults 150 and 250 ms. `trustUploads` (benchmarks): every upload
   * completes without being parsed, its document parsed only when its content is first read, as when
   * GitBook's parsing runs on GitBook's machines rather than on the cores the measured run needs.
   */
  processing?: { pendingMs?: number; progressMs?: number; trustUploads?: boolean };
  /** Time limit to fetch a URL source; default 5000 ms. */
  fetchTimeoutMs?: number;
  /**
   * Base of the `urls.app` links; default: the emulator's own address, which answers them with a small
   * page (so that a demo or a test prints no link to the real GitBook).
   */
  appUrl?: string;
  faults?: FaultOptions;
  /** Largest request body accepted (413 above it); default 64 MiB. */
  maxBodyBytes?: number;
}

export interface FaultOptions {
  /** Added before each response. */
  latencyMs?: number;
  /** Share 0..1 of requests answered 429 with Retry-After. */
  rate429?: number;
  /** Value of Retry-After on injected 429 (default 1). */
  retryAfterSeconds?: number;
  /** Share 0..1 answered 500, 502 or 503. */
  rate5xx?: number;
  /** Share 0..1 whose socket is destroyed without a response. */
  dropRate?: number;
  /** Specifications with these slugs never leave "pending". */
  stuckSlugs?: string[];
  /**
   * Specifications with these slugs end every processing with `PARSE_ERROR`, as when GitBook's parser
   * refuses a document that passed every local check (the demo shows such a failure).
   */
  refusedSlugs?: string[];
  /** Seed of the PRNG that draws random faults, so that they are reproducible. */
  seed?: number;
  /**
   * Hostile version content (`GET …/versions/{id|latest}/content`, successful answers only; `/content/raw`
   * and every other route are untouched). See `ContentFaults`.
   */
  content?: ContentFaults;
}

/**
 * How successful version-content answers are sent, to test a client against huge or slow answers. The
 * body stays valid JSON that parses to the same content: padding is whitespace before its last `}`.
 */
export interface ContentFaults {
  /**
   * Size of the body in bytes (at least the real content's size): the content padded with spaces,
   * streamed from one small reused buffer, so that 600 MB costs the emulator no memory. Default: none.
   */
  paddingBytes?: number;
  /** Send the body without `content-length` (chunked), so that only counting can bound it. */
  chunked?: boolean;
  /** Wait this long before the answer's status line and headers; `Infinity` never answers. */
  delayMs?: number;
  /**
   * After the headers and the body's first `min(64 KiB, size − 1)` bytes, wait this long before the
   * rest; `Infinity` never sends it. A client sees `200` and then a body that does not end.
   */
  stallMs?: number;
  /** Send the body `bytes` at a time, one piece every `everyMs`: slow, yet never idle for long. */
  trickle?: { bytes: number; everyMs: number };
}

/** Deterministic, one-shot faults for tests: the next `times` requests that match get this fault. */
export interface ScriptedFault {
  method?: string;
  /** Matched against the request's path without query, e.g. "/v1/orgs/demo-org/openapi/petstore". */
  path?: string | RegExp;
  /** Default 1. */
  times?: number;
  /** `delayMs: Infinity` holds the request without an answer until the client or the emulator closes. */
  fault: { status: number; retryAfter?: string; body?: unknown } | { drop: true } | { delayMs: number };
}

export interface ResolvedOptions {
  host: string;
  port: number;
  token: string;
  organizations: Organization[];
  forbiddenOrganizations: ReadonlySet<string>;
  pendingMs: number;
  progressMs: number;
  trustUploads: boolean;
  fetchTimeoutMs: number;
  /** Undefined: the emulator's own address. */
  appUrl: string | undefined;
  faults: FaultOptions;
  maxBodyBytes: number;
}

export class EmulatorOptionsError extends Error {
  override name = "EmulatorOptionsError";
}

const MiB = 1024 * 1024;

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const resolved: ResolvedOptions = {
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    token: options.token ?? "dev-token",
    organizations: (options.organizations ?? [defaultOrganization()]).map(completeOrganization),
    forbiddenOrganizations: new Set(options.forbiddenOrganizations ?? []),
    pendingMs: options.processing?.pendingMs ?? 150,
    progressMs: options.processing?.progressMs ?? 250,
    trustUploads: options.processing?.trustUploads ?? false,
    fetchTimeoutMs: options.fetchTimeoutMs ?? 5000,
    appUrl: options.appUrl?.replace(/\/+$/, ""),
    faults: options.faults ?? {},
    maxBodyBytes: options.maxBodyBytes ?? 64 * MiB,
  };
  checkOptions(resolved);
  return resolved;
}

function checkOptions(o: ResolvedOptions): void {
  const nonNegative = { pendingMs: o.pendingMs, progressMs: o.progressMs, fetchTimeoutMs: o.fetchTimeoutMs };
  for (const [name, value] of Object.entries(nonNegative)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new EmulatorOptionsError(`${name} must be a number of milliseconds >= 0, got ${value}`);
    }
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) {
    throw new EmulatorOptionsError(`port must be an integer from 0 to 65535, got ${o.port}`);
  }
  if (o.token.length === 0) throw new EmulatorOptionsError("token must not be empty");
  if (!Number.isInteger(o.maxBodyBytes) || o.maxBodyBytes < 1) {
    throw new EmulatorOptionsError(`maxBodyBytes must be a positive integer, got ${o.maxBodyBytes}`);
  }
  const ids = new Set<string>();
  for (const org of o.organizations) {
    if (ids.has(org.id)) throw new EmulatorOptionsError(`organization id "${org.id}" is seeded twice`);
    ids.add(org.id);
  }
  checkFaults(o.faults);
}

export function checkFaults(faults: FaultOptions): void {
  for (const name of ["rate429", "rate5xx", "dropRate"] as const) {
    const value = faults[name];
    if (value !== undefined && (!Number.isFinite(value) || value < 0 || value > 1)) {
      throw new EmulatorOptionsError(`faults.${name} must be a share from 0 to 1, got ${value}`);
    }
  }
  const total = (faults.rate429 ?? 0) + (faults.rate5xx ?? 0) + (faults.dropRate ?? 0);
  if (total > 1) {
    throw new EmulatorOptionsError(`faults.rate429 + rate5xx + dropRate must not exceed 1, got ${total}`);
  }
  for (const name of ["latencyMs", "retryAfterSeconds"] as const) {
    const value = faults[name];
    if (value !== undefined && (!Number.isFinite(value) || value < 0)) {
      throw new EmulatorOptionsError(`faults.${name} must be a number >= 0, got ${value}`);
    }
  }
  if (faults.content !== undefined) checkContentFaults(faults.content);
}

function checkContentFaults(content: ContentFaults): void {
  const { paddingBytes, delayMs, stallMs, trickle } = content;
  if (paddingBytes !== undefined && (!Number.isSafeInteger(paddingBytes) || paddingBytes < 0)) {
    throw new EmulatorOptionsError(
      `faults.content.paddingBytes must be an integer number of bytes >= 0, got ${paddingBytes}`,
    );
  }
  for (const [name, value] of Object.entries({ delayMs, stallMs })) {
    if (value !== undefined && (Number.isNaN(value) || value < 0)) {
      throw new EmulatorOptionsError(
        `faults.content.${name} must be a number of milliseconds >= 0 (Infinity: for ever), got ${value}`,
      );
    }
  }
  if (trickle !== undefined) {
    if (!Number.isSafeInteger(trickle.bytes) || trickle.bytes < 1) {
      throw new EmulatorOptionsError(
        `faults.content.trickle.bytes must be an integer >= 1, got ${trickle.bytes}`,
      );
    }
    if (!Number.isFinite(trickle.everyMs) || trickle.everyMs < 0) {
      throw new EmulatorOptionsError(
        `faults.content.trickle.everyMs must be a number of milliseconds >= 0, got ${trickle.everyMs}`,
      );
    }
  }
}
