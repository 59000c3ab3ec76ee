/**
 * Each spec's comparison runs in a worker under a memory and a time budget: a comparison over either,
 * or one that crashes, ends with "not reviewed: <reason>", and what the library writes to the console
 * in the worker never reaches ours.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { specChangeLine } from "../../src/core/change-review/change-line.ts";
import { changeComparer, specChanges } from "../../src/core/change-review/change-review.ts";
import { compareInWorker } from "../../src/core/change-review/compare-worker.ts";
import { NotReviewedError } from "../../src/core/change-review/not-reviewed.ts";
import { packDocument } from "../../src/core/change-review/packed-document.ts";
import { MAX_CHANGES } from "../../src/core/changes/collector.ts";
import { changeLine } from "../../src/core/changes/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { ChangeComparer } from "../../src/core/ports.ts";
import { readReviewBudget } from "../../src/settings/inputs.ts";
import { generatedSpec } from "./fixtures/generated-spec.ts";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
/** The settings' default budget. */
const roomy = readReviewBudget(() => "");
const apiChangeComparer = changeComparer(roomy);

const pets = (paths: string[]) => ({
  openapi: "3.0.3",
  info: { title: "Pets", version: "1" },
  paths: Object.fromEntries(paths.map((p) => [p, { get: { responses: { "200": { description: "ok" } } } }])),
});

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotReviewedError);
  return (error as NotReviewedError).reason;
}

describe("compareInWorker", () => {
  it("compares two documents in a worker and returns the classified changes", async () => {
    const changes = await compareInWorker(pets(["/pets", "/pets/{id}"]), pets(["/pets"]), roomy);
    expect(changes.breaking.map((change) => change.path)).toEqual(["/pets/{id}"]);
    expect(changes.breaking.map(changeLine)).toEqual([expect.stringMatching(/\/pets\/\{id\}.*removed/)]);
  });

  it("compares documents packed by another thread as it compares built ones", async () => {
    const before = pets(["/pets", "/pets/{id}"]);
    const after = pets(["/pets"]);
    const built = await compareInWorker(before, after, roomy);
    const packed = await compareInWorker(packDocument(before), packDocument(after), roomy);
    expect(packed).toEqual(built);
    expect(packed.breaking.map((change) => change.path)).toEqual(["/pets/{id}"]);
  });

  it("passes on how many changes the listing left out", async () => {
    const removed = Array.from({ length: MAX_CHANGES + 5 }, (_, i) => `/gone/${i}`);
    const changes = await compareInWorker(pets(["/pets", ...removed]), pets(["/pets"]), roomy);
    expect(changes.breaking).toHaveLength(MAX_CHANGES);
    expect(changes.omitted).toBe(5);
  });

  it("ends a comparison over its heap: not reviewed, out of memory", async () => {
    const before = generatedSpec(1500, "1");
    const after = generatedSpec(1500, "2");
    const reason = await reasonOf(compareInWorker(before, after, { ...roomy, heapMb: 32 }));
    expect(reason).toBe("the comparison needed more than its 32 MB of memory");
  });

  it("ends a comparison over its time: not reviewed, out of time", async () => {
    const reason = await reasonOf(
      compareInWorker({}, {}, { heapMb: 64, timeoutMs: 200 }, { entry: fixture("spinning-worker.ts") }),
    );
    expect(reason).toBe("the comparison took longer than its 200 ms");
  });

  it("says how a worker that stops without an answer stopped", async () => {
    const reason = await reasonOf(compareInWorker({}, {}, roomy, { entry: fixture("crashing-worker.ts") }));
    expect(reason).toBe("the comparison stopped with exit code 3");
  });

  it("says why the library refused the documents", async () => {
    const reason = await reasonOf(compareInWorker({ swagger: "1.2" }, pets([]), roomy));
    expect(reason).toMatch(/^the comparison failed: The base document is not an OpenAPI 3\.x/);
  });

  it("keeps what the engine writes to the console, and says it once at debug level", async () => {
    const log = new MemoryLogger();
    const changes = await compareInWorker({}, {}, roomy, { entry: fixture("noisy-worker.ts"), log });
    expect(changes.other.map((change) => change.message)).toEqual(["something changed"]);
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]?.level).toBe("debug");
    expect(log.entries[0]?.message).toMatch(
      /^The comparison wrote \d+ lines to the console \(dropped\); the first: Classification Rule error for node: paths\.\/pets\/0$/,
    );
  });
});

describe("readReviewBudget (the settings review-heap-mb and review-timeout-ms)", () => {
  const inputs = (values: Record<string, string>) => (name: string) => values[name] ?? "";

  it("takes the table's defaults, or the values given", () => {
    expect(readReviewBudget(inputs({}))).toEqual({ heapMb: 768, timeoutMs: 60_000 });
    expect(readReviewBudget(inputs({ "review-heap-mb": "32", "review-timeout-ms": "200" }))).toEqual({
      heapMb: 32,
      timeoutMs: 200,
    });
  });

  it("refuses a value that is not a whole number in range, naming the setting", () => {
    expect(() => readReviewBudget(inputs({ "review-heap-mb": "1e3" }))).toThrow(
      `Input 'review-heap-mb': "1e3" is not a whole number; expected 8 to 65536.`,
    );
    expect(() => readReviewBudget(inputs({ "review-heap-mb": "4" }))).toThrow(/review-heap-mb.*out of range/);
    expect(() => readReviewBudget(inputs({ "review-timeout-ms": "0" }))).toThrow(/review-timeout-ms/);
  });
});

describe("specChanges", () => {
  it("reports a comparison that cannot finish as not reviewed, with a warning naming the file", async () => {
    const log = new MemoryLogger();
    const comparer = {
      ...apiChangeComparer,
      compare: () => Promise.reject(new NotReviewedError("the comparison took longer than its 60 s")),
    };
    const changes = await specChanges(pets(["/a"]), pets([]), "base commit", comparer, [], {
      file: "api/big.yaml",
      log,
    });
    expect(changes).toEqual({
      against: "base commit",
      breaking: [],
      other: [],
      allowed: [],
      notReviewed: "the comparison took longer than its 60 s",
    });
    expect(log.entries.map((entry) => [entry.level, entry.message])).toEqual([
      [
        "warning",
        "API changes of api/big.yaml not reviewed: the comparison took longer than its 60 s. The rest of the run goes on; only fail-on-unreviewed counts it.",
      ],
    ]);
  });

  it("gives each change its kind, its place written once, its operation id and its message", async () => {
    const comparer: ChangeComparer = {
      ...apiChangeComparer,
      compare: async () => ({
        breaking: [
          {
            kind: "operation-removed",
            path: "/pets/{id}",
            method: "DELETE",
            operationId: "deletePet",
            location: "#/paths/~1pets~1{id}/delete",
            message: "removed",
          },
          { kind: "path-removed", path: "/owners", location: "#/paths/~1owners", message: "removed" },
        ],
        other: [{ kind: "security-changed", location: "#/security", message: "security changed" }],
        omitted: 12,
      }),
    };
    const changes = await specChanges(pets(["/a"]), pets([]), "base commit", comparer, ["/owners"]);
    expect(changes).toEqual({
      against: "base commit",
      breaking: [
        {
          kind: "operation-removed",
          operation: "DELETE /pets/{id}",
          operationId: "deletePet",
          message: "removed",
          pointer: "#/paths/~1pets~1{id}/delete",
        },
      ],
      other: [{ kind: "security-changed", message: "security changed", pointer: "#/security" }],
      allowed: [
        { kind: "path-removed", operation: "/owners", message: "removed", pointer: "#/paths/~1owners" },
      ],
      omitted: 12,
    });
    expect(changes.breaking.map(specChangeLine)).toEqual(["DELETE /pets/{id}: removed"]);
  });

  it("has a new spec as one change to the whole document", async () => {
    const changes = await specChanges(undefined, pets([]), "base commit", apiChangeComparer, []);
    expect(changes).toEqual({
      against: "nothing",
      breaking: [],
      other: [{ kind: "spec-added", message: "New spec." }],
      allowed: [],
    });
  });

  it("reviews through the worker-backed comparer", async () => {
    const changes = await specChanges(pets(["/a", "/b"]), pets(["/a"]), "base commit", apiChangeComparer, []);
    expect(changes.notReviewed).toBeUndefined();
    expect(changes.breaking).toEqual([
      { kind: "path-removed", operation: "/b", message: expect.any(String), pointer: "#/paths/~1b" },
    ]);
  });
});
