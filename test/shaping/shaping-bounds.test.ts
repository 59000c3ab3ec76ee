/**
 * What one spec's shaping may consume is bounded for the spec as a whole — every overlay of the
 * publication draws on one budget — and each overrun fails the spec at its place (the overlay's file and
 * line, or the document's path), never with a stack overflow out of the run.
 */
import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../src/core/logger.ts";
import { ShapingError, shapeDocument } from "../../src/core/shaping/audiences.ts";
import {
  compileWork,
  depthOf,
  MAX_DOCUMENT_DEPTH,
  MAX_PATTERN_WORK,
  ShapingBudget,
  tooDeep,
} from "../../src/core/shaping/bounds.ts";
import { applyOverlay, type Overlay, OverlayError, parseOverlay } from "../../src/core/shaping/overlay.ts";
import { compilePattern } from "../../src/core/shaping/patterns.ts";

const MiB = 1024 * 1024;

const overlay = (actions: string, version = "1.0.0") =>
  `overlay: ${version}\ninfo: { title: t, version: '1' }\nactions:\n${actions}`;

/** Shapes `document` with the overlays given as texts (file name → text), in order. */
function shape(document: unknown, files: Record<string, string | Overlay>, removeInternal = false) {
  const parsed = new Map(
    Object.entries(files).map(([file, text]) => [
      file,
      typeof text === "string" ? parseOverlay(text, file) : text,
    ]),
  );
  return shapeDocument(
    document,
    { overlays: [...parsed.keys()], removeInternal },
    { readOverlay: (file) => parsed.get(file), logger: new MemoryLogger(), specFile: "api.yaml" },
  );
}

const SPEC = { openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {} };

describe("one budget for all of a spec's overlays", () => {
  it("stops copies split over several overlay files, each under the bound alone, at the one that passes it", () => {
    const document = {
      ...SPEC,
      "x-big": { text: "x".repeat(MiB) },
      "x-t": Array.from({ length: 12 }, () => ({})),
    };
    // Each adds 12 MiB: alone, each is far under 32 MiB; the third brings the spec to 36 MiB.
    const copy = overlay(
      "  - target: $['x-t'][*]\n    copy: $['x-big']\n  - target: $['x-t'][*].text\n    remove: true\n",
      "1.1.0",
    );
    const run = () => shape(document, { "o/1.yaml": copy, "o/2.yaml": copy, "o/3.yaml": copy });
    expect(run).toThrow(OverlayError);
    expect(run).toThrow(
      /^o\/3\.yaml:4: action 1 \(\$\['x-t'\]\[\*\]\) merges its copied value into 12 nodes; with the actions before it, this spec's overlays add about 36\.\d MiB, over the 32\.0 MiB limit for one spec \(all its overlays together\)/,
    );
    // Two of them fit.
    expect(shape(document, { "o/1.yaml": copy, "o/2.yaml": copy }).summary).toBe("2 overlays");
  });

  it("stops the nodes selected by several overlays together past a million", () => {
    const document = { ...SPEC, "x-a": Array.from({ length: 600_000 }, () => ({})) };
    const select = overlay("  - target: $['x-a'][*]\n    update: {}\n");
    expect(() => shape(document, { "o/1.yaml": select, "o/2.yaml": select })).toThrow(
      /^o\/2\.yaml:4: action 1's target \$\['x-a'\]\[\*\] selects more nodes than one spec's targets may select together \(1,000,000, counting those each segment passes to the next\)/,
    );
  });

  it("stops reading overlays past 32 MiB of text for one spec", () => {
    const small = parseOverlay(overlay("  - target: $.info\n    update: { x-a: 1 }\n"), "o/1.yaml");
    expect(() =>
      shape(SPEC, {
        "o/1.yaml": { ...small, bytes: 20 * MiB },
        "o/2.yaml": { ...small, file: "o/2.yaml", bytes: 20 * MiB },
      }),
    ).toThrow(
      /^o\/2\.yaml: with the overlays before it, this spec's overlays are 40\.0 MiB of text, over the 32\.0 MiB one spec may read\.$/,
    );
  });

  it("stops pattern work past its bound before the pattern runs, at the action's line", () => {
    const document = { ...SPEC, "x-a": ["a".repeat(300_000)] };
    // 1,002 instructions × 300,001 characters: over 250 million units on the first call.
    const heavy = overlay(
      "  - target: $.info\n    update: { x-a: 1 }\n  - target: \"$['x-a'][?match(@, '[a-z]{1000}')]\"\n    remove: true\n",
    );
    expect(() => shape(document, { "o/1.yaml": heavy })).toThrow(
      `o/1.yaml:6: action 2's target $['x-a'][?match(@, '[a-z]{1000}')]: its match() patterns, with those before them, have done ${MAX_PATTERN_WORK.toLocaleString("en-US")} units of work (compiling, and pattern size × text length), the limit for one spec`,
    );
  });

  it("counts compiling an overlay's patterns against the spec that applies it", () => {
    const parsed = parseOverlay(
      overlay("  - target: \"$.paths[?search(@.summary, 'budget-[0-9]{40}')]\"\n    remove: true\n"),
      "o/1.yaml",
    );
    expect(parsed.patternWork).toBe(compileWork(compilePattern("budget-[0-9]{40}", "search").size));
    const budget = new ShapingBudget();
    budget.patternWork = MAX_PATTERN_WORK - 10;
    expect(() => applyOverlay(structuredClone(SPEC), parsed, () => {}, budget)).toThrow(
      /^o\/1\.yaml: with the overlays before it, this spec's overlays have done more pattern work than one spec may \(250,000,000 units/,
    );
  });

  it("gives each shaping its own budget: the next spec starts from nothing", () => {
    const budget = new ShapingBudget();
    const document = { ...SPEC, "x-t": [{}] };
    applyOverlay(
      document,
      parseOverlay(overlay("  - target: $['x-t'][*]\n    update: { a: 1 }\n"), "o.yaml"),
      () => {},
      budget,
    );
    // `$['x-t']` passes one node to `[*]`, which selects one.
    expect(budget).toMatchObject({ selected: 2, addedBytes: 7 });
    expect(
      shape(SPEC, { "o.yaml": overlay("  - target: $.info\n    update: { x-a: 1 }\n") }).document,
    ).toMatchObject({
      info: { "x-a": 1 },
    });
  });
});

/** `{ a: { a: … } }`, `levels` mappings deep. */
function nested(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 1; i < levels; i++) {
    const child = {};
    node.a = child;
    node = child;
  }
  return root;
}

describe("depth and length", () => {
  it("fails a spec nested 500 levels deep with the document path, whatever the overlay", () => {
    const document = { ...SPEC, components: { schemas: { Deep: nested(500) } } };
    for (const target of ["$.info", "$..description"]) {
      const run = () =>
        shape(document, { "o.yaml": overlay(`  - target: ${target}\n    update: { x-a: 1 }\n`) });
      expect(run).toThrow(ShapingError);
      expect(run).toThrow(
        /^the document nests deeper than 200 levels at \$\.components\.schemas\.Deep\.a\.a\.a\.a\.a…\.a\.a\.a, more than shaping \(overlays, remove-internal\) reads/,
      );
    }
    // 190 levels are read, `..` included (json-p3 stops at 50 by default).
    const fine = { ...SPEC, components: { schemas: { Deep: nested(190) } } };
    expect(shape(fine, { "o.yaml": overlay("  - target: $..a\n    update: { x-a: 1 }\n") }).summary).toBe(
      "1 overlay",
    );
  });

  it("finds a document too deep without recursion, even 100,000 levels down", () => {
    expect(tooDeep(nested(100_000))).toHaveLength(MAX_DOCUMENT_DEPTH);
    expect(tooDeep(nested(MAX_DOCUMENT_DEPTH))).toBeUndefined();
    expect(depthOf(nested(100_000))).toBe(100_000);
  });

  it("refuses a 3,000-segment target at its line, before it runs", () => {
    const text = overlay(`  - target: $${".a".repeat(3000)}\n    update: { x-a: 1 }\n`);
    expect(() => parseOverlay(text, "o.yaml")).toThrow(
      /^o\.yaml:4:13: the target of action 1, "\$\.a\.a.*…", has 3,000 segments; each goes one level down, and a shaped document is at most 200 levels deep, so it could select nothing\.$/,
    );
  });

  it("refuses a target nested or long past its bounds at its line (json-p3's parser recurses)", () => {
    const nestedFilters = overlay(`  - target: "$${"[?@".repeat(40)}${"]".repeat(40)}"\n    remove: true\n`);
    expect(() => parseOverlay(nestedFilters, "o.yaml")).toThrow(
      /^o\.yaml:4:13: the target of action 1, .*, nests brackets, parentheses and negations 40 deep, over the 32 a JSONPath query may have here\.$/,
    );
    const negations = overlay(`  - target: "$[?${"!".repeat(8000)}@.a]"\n    remove: true\n`);
    expect(() => parseOverlay(negations, "o.yaml")).toThrow(
      /^o\.yaml:4:13: .* nests brackets, parentheses and negations 8,?001 deep/,
    );
    const long = overlay(`  - target: "$[?@.operationId == '${"x".repeat(20_000)}']"\n    remove: true\n`);
    expect(() => parseOverlay(long, "o.yaml")).toThrow(
      /^o\.yaml:4:13: the target of action 1 is 20,023 characters long, over the 16,384 a JSONPath query may have here\.$/,
    );
  });

  it("refuses an update nested past the bound at its line, and an update that would nest the document past it where it lands", () => {
    let deep = "1";
    for (let i = 0; i < 210; i++) deep = `{a: ${deep}}`;
    expect(() => parseOverlay(overlay(`  - target: $.info\n    update: ${deep}\n`), "o.yaml")).toThrow(
      /^o\.yaml:5:\d+: the `update` of action 1 nests deeper than 200 levels, the most a shaped document may have\.$/,
    );
    // 150 levels, copied into a node 100 levels down: each alone is within the bound.
    const document = { ...SPEC, "x-deep": nested(150), "x-place": nested(100) };
    const copy = overlay(`  - target: $['x-place']${".a".repeat(98)}\n    copy: $['x-deep']\n`, "1.1.0");
    expect(() => shape(document, { "o.yaml": copy })).toThrow(
      /^o\.yaml:4: action 1 \(.*\) would nest the document deeper than 200 levels at \$\["x-place"\]\.a\.a\.a\.a\.a\.a\.a…\.a\.a\.a, the most a shaped document may have\.$/,
    );
  });
});

describe("walking", () => {
  it("stops `..` after `..` on a deep part, which walks every chain of ancestors while selecting nothing", () => {
    // 40 levels: `$..a` ten times walks about C(40, 10) chains before the last segment could select.
    const document = { ...SPEC, "x-deep": nested(40) };
    const walk = overlay(`  - target: $${"..a".repeat(10)}..missing\n    update: { x-a: 1 }\n`);
    expect(() => shape(document, { "o.yaml": walk })).toThrow(
      /^o\.yaml:4: action 1's target \$\.\.a\.\.a.*\.\.missing walks more than the 10,000,000 mapping members one spec's targets may walk together/,
    );
  });

  it("counts the members walked by all of a spec's overlays together", () => {
    // 1,000 mappings of 1,000 members: each overlay's `..` walks about 2 million.
    const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    const document = { ...SPEC, "x-wide": Array.from({ length: 1000 }, () => wide) };
    const walk = overlay("  - target: $..[?@.missing]\n    update: { x-a: 1 }\n");
    const files = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`o/${i}.yaml`, walk]));
    expect(() => shape(document, files)).toThrow(
      /^o\/4\.yaml:4: action 1's target \$\.\.\[\?@\.missing\] walks more than the 10,000,000 mapping members/,
    );
  });
});
