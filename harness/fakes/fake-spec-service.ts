import type { Clock, SpecService } from "../../src/core/ports.ts";
import { createApiError } from "../../src/core/service/errors.ts";
import type { Spec, SpecSource, SpecVersion, SpecVersionContent } from "../../src/core/service/types.ts";

/** How the fake service ends the processing of one slug. */
export type FakeOutcome =
  | { kind: "success" }
  | { kind: "error"; code: string; messages: string[] }
  | { kind: "stuck" }
  | { kind: "http-error"; status: number; on: "put" | "get" };

export interface FakeServiceOptions {
  outcomes?: Record<string, FakeOutcome>;
  pollsToFinish?: number;
  callDelayMs?: number;
}

/**
 * An in-memory service for pipeline unit tests: processing ends after `pollsToFinish` reads of the
 * spec. It tracks the number of calls in flight, to check the concurrency limit.
 */
export class FakeSpecService implements SpecService {
  readonly specs = new Map<string, Spec & { pollsLeft: number }>();
  readonly calls: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private versionCounter = 0;

  private readonly options: FakeServiceOptions;

  constructor(options: FakeServiceOptions = {}) {
    this.options = options;
  }

  /** The fake keeps no documents: its content never matches, so every spec is uploaded. */
  async getVersionContent(_orgId: string, slug: string, _versionId: string): Promise<SpecVersionContent> {
    this.calls.push(`getVersionContent ${slug}`);
    return { filesystem: [] };
  }

  async getLatestVersionContent(_orgId: string, slug: string): Promise<SpecVersionContent> {
    this.calls.push(`getLatestVersionContent ${slug}`);
    return { filesystem: [] };
  }

  /** A listing reads every spec: each read counts toward its processing's end, as `getSpec`'s does. */
  async *iterateSpecs(_orgId: string): AsyncIterableIterator<Spec> {
    this.calls.push("iterateSpecs");
    for (const spec of [...this.specs.values()]) yield this.read(spec);
  }

  seed(slug: string, spec: Partial<Spec>): void {
    this.specs.set(slug, { ...makeSpec(slug), ...spec, pollsLeft: 0 });
  }

  private async call<T>(name: string, body: () => T): Promise<T> {
    this.calls.push(name);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.options.callDelayMs ?? 1));
      return body();
    } finally {
      this.inFlight--;
    }
  }

  private outcome(slug: string): FakeOutcome {
    return this.options.outcomes?.[slug] ?? { kind: "success" };
  }

  putSpec(orgId: string, slug: string, _source: SpecSource) {
    return this.call(`PUT ${orgId}/${slug}`, () => {
      const outcome = this.outcome(slug);
      if (outcome.kind === "http-error" && outcome.on === "put") throw httpError(outcome.status);
      const existing = this.specs.get(slug);
      const spec = {
        ...(existing ?? makeSpec(slug)),
        processingState: "pending",
        updatedAt: new Date().toISOString(),
        pollsLeft: this.options.pollsToFinish ?? 2,
      };
      this.specs.set(slug, spec);
      return { spec: publicView(spec), created: existing === undefined };
    });
  }

  getSpec(orgId: string, slug: string) {
    return this.call(`GET ${orgId}/${slug}`, () => {
      const spec = this.specs.get(slug);
      if (!spec) throw httpError(404);
      const outcome = this.outcome(slug);
      if (outcome.kind === "http-error" && outcome.on === "get") throw httpError(outcome.status);
      return this.read(spec);
    });
  }

  private read(spec: Spec & { pollsLeft: number }): Spec {
    const outcome = this.outcome(spec.slug);
    if (spec.processingState !== "complete" && outcome.kind !== "stuck") {
      spec.pollsLeft--;
      if (spec.pollsLeft === 1) spec.processingState = "progress";
      if (spec.pollsLeft <= 0) this.finish(spec, outcome);
    }
    return publicView(spec);
  }

  private finish(spec: Spec, outcome: FakeOutcome): void {
    spec.processingState = "complete";
    spec.lastProcessedAt = new Date().toISOString();
    if (outcome.kind === "error") {
      spec.lastProcessErrorCode = outcome.code;
      spec.lastProcessedErrors = outcome.messages.map((message) => ({ message }));
    } else {
      delete spec.lastProcessErrorCode;
      spec.lastProcessedErrors = [];
      spec.lastVersion = `v${++this.versionCounter}`;
    }
  }

  getVersion(orgId: string, slug: string, versionId: string) {
    return this.call(`GET ${orgId}/${slug}/versions/${versionId}`, () => makeVersion(slug, versionId));
  }

  getLatestVersion(orgId: string, slug: string) {
    return this.call(`GET ${orgId}/${slug}/versions/latest`, () =>
      makeVersion(slug, this.specs.get(slug)?.lastVersion ?? "none"),
    );
  }

  listOrganizationsByEmailDomain(domain: string) {
    return this.call(`GET email-domains/${domain}`, () => []);
  }

  async close(): Promise<void> {}

  deleteSpec(orgId: string, slug: string) {
    return this.call(`DELETE ${orgId}/${slug}`, () => {
      if (!this.specs.delete(slug)) throw httpError(404);
    });
  }
}

function publicView(spec: Spec & { pollsLeft?: number }): Spec {
  const { pollsLeft: _ignored, ...rest } = spec;
  return structuredClone(rest);
}

function makeSpec(slug: string): Spec {
  const now = new Date().toISOString();
  return {
    object: "openapi-spec",
    id: `id-${slug}`,
    createdAt: now,
    updatedAt: now,
    slug,
    processingState: "complete",
    permissions: { edit: true },
    urls: { location: `http://api.test/v1/orgs/o/openapi/${slug}`, app: `http://app.test/o/openapi/${slug}` },
  };
}

function makeVersion(slug: string, id: string): SpecVersion {
  return {
    object: "openapi-spec-version",
    id,
    url: `http://api.test/${slug}/${id}.yaml`,
    urls: {
      location: `http://api.test/v1/orgs/o/openapi/${slug}/versions/${id}`,
      app: `http://app.test/${slug}/${id}`,
    },
  };
}

/** The error the real client throws for `status`. */
export function httpError(status: number): Error {
  return createApiError({
    status,
    request: { method: "GET", url: "http://fake.test/v1/fake", path: "/v1/fake", headers: {} },
    subject: { operation: "fake" },
    attempts: 1,
    retryable: false,
  });
}

/** A clock whose sleeps pass instantly but advance its time, so tests never wait. */
export class InstantClock implements Clock {
  time = 1_000_000;
  readonly sleeps: number[] = [];
  now(): number {
    return this.time;
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.time += ms;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Real time, sleeps included, moved ahead when the test says: a deadline passes at a point the test
 * chooses (after another spec is done), never because the machine was slow.
 */
export class ShiftableClock implements Clock {
  #shift = 0;
  now(): number {
    return Date.now() + this.#shift;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
  advance(ms: number): void {
    this.#shift += ms;
  }
}
