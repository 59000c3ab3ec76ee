import { fetchSource } from "./fetch-source.ts";
import { processSpecText } from "./gitbook-parser.ts";
import type { SpecStore, StoredSpec } from "./store.ts";

export interface ProcessorOptions {
  pendingMs: number;
  progressMs: number;
  fetchTimeoutMs: number;
  isStuck(slug: string): boolean;
  /** Processing of this slug ends with PARSE_ERROR whatever its document (`refusedSlugs`). */
  isRefused?(slug: string): boolean;
  /** Complete uploads without parsing them; parse on the first read of their content. */
  trustUploads?: boolean;
}

interface Job {
  timer?: NodeJS.Timeout;
  abort: AbortController;
}

/**
 * Simulates the service's processing of an upload: "pending" for `pendingMs`, then "progress" for
 * `progressMs` (plus the fetch of a URL source), then "complete" with a new version or an error code.
 * A new upload of the same specification supersedes the one in flight.
 */
export class Processor {
  readonly #store: SpecStore;
  readonly #options: ProcessorOptions;
  readonly #jobs = new Map<StoredSpec, Job>();

  constructor(store: SpecStore, options: ProcessorOptions) {
    this.#store = store;
    this.#options = options;
  }

  start(spec: StoredSpec): void {
    this.cancel(spec);
    const job: Job = { abort: new AbortController() };
    this.#jobs.set(spec, job);
    job.timer = later(this.#options.pendingMs, () => {
      if (this.#options.isStuck(spec.slug)) return;
      this.#store.setProgress(spec);
      job.timer = later(this.#options.progressMs, () => {
        job.timer = undefined;
        void this.#finish(spec, job);
      });
    });
  }

  cancel(spec: StoredSpec): void {
    const job = this.#jobs.get(spec);
    if (job === undefined) return;
    clearTimeout(job.timer);
    job.abort.abort();
    this.#jobs.delete(spec);
  }

  close(): void {
    for (const spec of [...this.#jobs.keys()]) this.cancel(spec);
  }

  async #finish(spec: StoredSpec, job: Job): Promise<void> {
    const source = spec.source;
    let text: string;
    if ("url" in source) {
      const fetched = await fetchSource(source.url, this.#options.fetchTimeoutMs, job.abort.signal);
      if (job.abort.signal.aborted) return;
      if (!fetched.ok) {
        this.#store.recordFailure(spec, fetched.code, [{ code: fetched.code, message: fetched.message }], 1);
        this.#jobs.delete(spec);
        return;
      }
      text = fetched.text;
    } else {
      text = source.text;
    }
    if (this.#options.isRefused?.(spec.slug)) {
      const message = `GitBook's parser refused the document of "${spec.slug}" (the emulator's refusedSlugs).`;
      this.#store.recordFailure(spec, "PARSE_ERROR", [{ code: "INJECTED_FAULT", message }], 1);
      this.#jobs.delete(spec);
      return;
    }
    if (this.#options.trustUploads) {
      let document: Record<string, unknown> | undefined;
      this.#store.recordSuccess(spec, {
        text,
        format: text.trimStart().startsWith("{") ? "json" : "yaml",
        document: () => {
          if (document) return document;
          const parsed = processSpecText(text);
          document = parsed.ok ? parsed.document : {};
          return document;
        },
        ...("url" in source ? { sourceURL: source.url } : {}),
      });
      this.#jobs.delete(spec);
      return;
    }
    const parsed = processSpecText(text);
    if (parsed.ok) {
      const { document } = parsed;
      this.#store.recordSuccess(spec, {
        text,
        format: parsed.format,
        document: () => document,
        ...("url" in source ? { sourceURL: source.url } : {}),
      });
    } else {
      this.#store.recordFailure(spec, "PARSE_ERROR", parsed.errors, parsed.errorCount);
    }
    this.#jobs.delete(spec);
  }
}

function later(ms: number, run: () => void): NodeJS.Timeout {
  return setTimeout(run, ms).unref();
}
