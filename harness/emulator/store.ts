import { randomUUID } from "node:crypto";
import type {
  ProcessError,
  ProcessErrorCode,
  ProcessingState,
  SpecSource,
} from "../../src/core/service/types.ts";
import type { MonotonicClock } from "./clock.ts";

export interface StoredVersion {
  seq: number;
  id: string;
  createdAt: string;
  text: string;
  format: "json" | "yaml";
  /** The parsed document; parsed on first use when the processor trusts uploads. */
  document: () => Record<string, unknown>;
  /** The URL the text was fetched from, for URL sources. */
  sourceURL?: string;
}

export interface StoredSpec {
  seq: number;
  id: string;
  orgId: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  source: SpecSource;
  processingState: ProcessingState;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: ProcessErrorCode;
  lastProcessedErrors?: ProcessError[];
  lastProcessedErrorCount: number;
  versions: StoredVersion[];
}

/** The emulator's in-memory state: specifications per organization, in creation order. */
export class SpecStore {
  readonly #clock: MonotonicClock;
  readonly #byOrg = new Map<string, Map<string, StoredSpec>>();
  #seq = 0;

  constructor(clock: MonotonicClock) {
    this.#clock = clock;
  }

  list(orgId: string): StoredSpec[] {
    return [...(this.#byOrg.get(orgId)?.values() ?? [])];
  }

  get(orgId: string, slug: string): StoredSpec | undefined {
    return this.#byOrg.get(orgId)?.get(slug);
  }

  create(orgId: string, slug: string, source: SpecSource): StoredSpec {
    const now = this.#clock.now();
    const spec: StoredSpec = {
      seq: ++this.#seq,
      id: newId("spec"),
      orgId,
      slug,
      createdAt: now,
      updatedAt: now,
      source,
      processingState: "pending",
      lastProcessedErrorCount: 0,
      versions: [],
    };
    let specs = this.#byOrg.get(orgId);
    if (specs === undefined) {
      specs = new Map();
      this.#byOrg.set(orgId, specs);
    }
    specs.set(slug, spec);
    return spec;
  }

  /** A new upload: the results of earlier processing stay until this one's result replaces them. */
  replaceSource(spec: StoredSpec, source: SpecSource): void {
    spec.source = source;
    spec.updatedAt = this.#clock.now();
    spec.processingState = "pending";
  }

  delete(orgId: string, slug: string): StoredSpec | undefined {
    const spec = this.get(orgId, slug);
    if (spec !== undefined) this.#byOrg.get(orgId)?.delete(slug);
    return spec;
  }

  recordSuccess(spec: StoredSpec, version: Omit<StoredVersion, "seq" | "id" | "createdAt">): StoredVersion {
    const now = this.#clock.now();
    const stored: StoredVersion = { ...version, seq: ++this.#seq, id: newId("ver"), createdAt: now };
    spec.versions.push(stored);
    spec.processingState = "complete";
    spec.lastVersion = stored.id;
    spec.lastProcessedAt = now;
    spec.lastProcessErrorCode = undefined;
    spec.lastProcessedErrors = undefined;
    spec.lastProcessedErrorCount = 0;
    return stored;
  }

  recordFailure(spec: StoredSpec, code: ProcessErrorCode, errors: ProcessError[], errorCount: number): void {
    spec.processingState = "complete";
    spec.lastProcessedAt = this.#clock.now();
    spec.lastProcessErrorCode = code;
    spec.lastProcessedErrors = errors;
    spec.lastProcessedErrorCount = errorCount;
  }

  setProgress(spec: StoredSpec): void {
    spec.processingState = "progress";
  }
}

function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
}
