/**
 * Issue 26, "one spec never stops another", as a property of the whole run: fast-check (fixed seed)
 * picks which of four specs fail and in which phase — parse (a syntax error), bundle (a `$ref` to a
 * missing file), shape (an overlay that cannot apply), validate (an invalid document), review (a
 * comparer that throws), upload (GitBook refusing the document), or an exception no step expects (a
 * stack overflow inside the preparation's worker; a comparer's malformed answer breaking the code that
 * reads it, in the main thread) — and a preview run against the emulator over
 * loopback must publish every other spec, list each failed one with its reason, and end failed with
 * every reason in its final message.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { unpackDocument } from "../../src/core/change-review/packed-document.ts";
import type { ChangeComparer } from "../../src/core/ports.ts";
import { finalFailureMessage } from "../../src/core/report/outputs.ts";
import type { SpecResult } from "../../src/core/result.ts";
import type { SpecShaping } from "../../src/core/shaping/publish-targets.ts";
import { runAgainst, useEmulator } from "../support/emulator-run.ts";
import { git } from "../support/git.ts";

const TOKEN = "isolation-token-5c1e";
const SPECS = 4;
const PHASES = [
  "parse",
  "bundle",
  "shape",
  "validate",
  "review",
  "upload",
  "unexpected",
  "unexpected-main",
] as const;
type Phase = (typeof PHASES)[number];

const emulator = useEmulator(TOKEN);

const title = (index: number) => `Spec ${index}`;
/** Every spec references a shared file, so that each is bundled, in a worker of the run. */
const healthy = (index: number) =>
  `openapi: 3.0.3\ninfo: {title: "${title(index)}", version: "1.0.0"}\npaths:\n  /things:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: "../common.yaml#/Thing"}\n`;
const COMMON = "Thing:\n  type: object\n  properties:\n    id: {type: string}\n";
const BAD_OVERLAY =
  "overlay: 1.0.0\ninfo:\n  title: Breaks\n  version: 1.0.0\nactions:\n  - target: $.info\n    update: a text\n";

/** The file of spec `index`; the unexpected fault is chosen by name (fixtures/faulty-preparation.ts). */
const fileOf = (index: number, phase: Phase | undefined) =>
  `specs/s${index}${phase === "unexpected" ? ".throw-validating" : ""}.yaml`;

function faultyText(index: number, phase: Phase): string {
  const text = healthy(index);
  if (phase === "parse") return "openapi: 3.0.3\ninfo: [\n";
  if (phase === "bundle") return text.replace("../common.yaml#/Thing", "../missing.yaml#/Thing");
  // What GitBook cannot take, refused whatever `strict` says: an `info.version` that is not a text.
  if (phase === "validate") return text.replace('version: "1.0.0"', "version: [1]");
  return text;
}

/** What the results must say of a spec failed in `phase`. */
function expectFailedAt(result: SpecResult | undefined, phase: Phase): void {
  expect(result).toBeDefined();
  const spec = result as SpecResult;
  if (phase === "review") {
    expect(spec.status).toBe("published");
    expect(spec.changes?.notReviewed).toBe("the comparison failed: the comparer broke");
    return;
  }
  expect(spec.status).toBe("failed");
  const code = {
    parse: "SYNTAX_ERROR",
    bundle: "BUNDLE_ERROR",
    shape: "SHAPING_ERROR",
    validate: "INVALID_SPEC",
    upload: "PARSE_ERROR",
    unexpected: "INTERNAL_ERROR",
    "unexpected-main": "INTERNAL_ERROR",
  }[phase];
  expect(spec.errorCode).toBe(code);
  const reason = {
    parse: /syntax/i,
    bundle: /missing\.yaml/,
    shape: /must be a mapping/,
    validate: /info\.version/,
    upload: /refused/,
    unexpected: /while validating: RangeError: Maximum call stack size exceeded/,
    "unexpected-main": /An unexpected error ended this spec's work: TypeError/,
  }[phase];
  expect(spec.errors.join("\n")).toMatch(reason);
}

interface Case {
  /** The phase each spec fails in; undefined: it is healthy. */
  faults: (Phase | undefined)[];
}

async function runCase({ faults }: Case): Promise<void> {
  const workspace = await mkdtemp(path.join(tmpdir(), "one-spec-"));
  try {
    await mkdir(path.join(workspace, "specs"));
    await mkdir(path.join(workspace, "overlays"));
    await writeFile(path.join(workspace, "common.yaml"), COMMON);
    await writeFile(path.join(workspace, "overlays", "breaks.yaml"), BAD_OVERLAY);
    const slugs = new Map(faults.map((phase, index) => [fileOf(index, phase), `s${index}`]));
    // The base commit has every spec healthy, so that each is compared.
    for (const [index, phase] of faults.entries())
      await writeFile(path.join(workspace, fileOf(index, phase)), healthy(index));
    git(workspace, "init", "-q", "-b", "main");
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "base");
    const baseCommit = git(workspace, "rev-parse", "HEAD");
    for (const [index, phase] of faults.entries())
      if (phase) await writeFile(path.join(workspace, fileOf(index, phase)), faultyText(index, phase));

    const shaping = new Map<string, SpecShaping>();
    const refused: string[] = [];
    const reviewFails = new Set<string>();
    const answersMalformed = new Set<string>();
    for (const [index, phase] of faults.entries()) {
      if (phase === "shape")
        shaping.set(fileOf(index, phase), {
          overlays: ["overlays/breaks.yaml"],
          removeInternal: false,
          audiences: [],
        });
      if (phase === "upload") refused.push(`s${index}-pr-7`);
      if (phase === "review") reviewFails.add(title(index));
      if (phase === "unexpected-main") answersMalformed.add(title(index));
    }
    const comparer: ChangeComparer = {
      compare: async (_before, after) => {
        const name = (unpackDocument(after) as { info?: { title?: string } }).info?.title ?? "";
        if (reviewFails.has(name)) throw new Error("the comparer broke");
        // What no comparer should answer: the code reading it throws, outside any step's own handling.
        if (answersMalformed.has(name)) return { breaking: undefined, other: [] } as never;
        return { breaking: [], other: [] };
      },
      isAllowed: () => false,
    };
    emulator().setFaults({ refusedSlugs: refused });
    const { report } = await runAgainst(emulator(), {
      workspace,
      slugs,
      mode: "preview",
      baseCommit,
      shaping,
      ports: { comparer, git: commandLineGit },
    });

    expect(report.stoppedReason).toBeUndefined();
    const byFile = new Map(report.results.map((result) => [result.file, result]));
    expect(report.results).toHaveLength(SPECS);
    for (const [index, phase] of faults.entries()) {
      const result = byFile.get(fileOf(index, phase));
      if (phase === undefined) {
        expect(result?.status, `${fileOf(index, phase)}: ${result?.errors.join("; ")}`).toBe("published");
        expect(emulator().getSpec("demo-org", `s${index}-pr-7`)).toBeDefined();
      } else expectFailedAt(result, phase);
    }
    // The run fails at its end with every failed spec's reason.
    const failed = report.results.filter((result) => result.status === "failed");
    const message = finalFailureMessage(report.results);
    if (failed.length === 0) expect(message).toBeUndefined();
    for (const result of failed) {
      expect(message).toContain(
        `${result.file} (${result.slug}): failed, ${result.errorCode}: ${result.errors[0]}`,
      );
    }
  } finally {
    emulator().setFaults({});
    await rm(workspace, { recursive: true, force: true });
  }
}

const caseArbitrary: fc.Arbitrary<Case> = fc
  .array(fc.option(fc.constantFrom(...PHASES), { nil: undefined, freq: 2 }), {
    minLength: SPECS,
    maxLength: SPECS,
  })
  .filter(
    (faults) => faults.some((phase) => phase === undefined) && faults.some((phase) => phase !== undefined),
  )
  .map((faults) => ({ faults }));

describe("one spec never stops another", () => {
  it("whatever phase of whichever spec fails, the others publish and the run lists every reason", async () => {
    // Every phase once, alone, then cases fast-check draws.
    const examples: [Case][] = PHASES.map((phase, index) => [
      { faults: Array.from({ length: SPECS }, (_, spec) => (spec === index % SPECS ? phase : undefined)) },
    ]);
    await fc.assert(fc.asyncProperty(caseArbitrary, runCase), {
      seed: 26,
      numRuns: PHASES.length + 2,
      examples,
      endOnFailure: true,
    });
  }, 240_000);
});
