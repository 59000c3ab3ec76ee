/**
 * Specs and overlays that once held or broke a run (issue 26, items 5 and 6), for the CLI's tests of
 * `bundle` and `sync`: patterns that backtrack for hours in JavaScript's RegExp on a 3,000-character
 * description, a pattern outside I-Regexp, a 3,000-segment target, a document 500 levels deep and a copy
 * that adds 12 MiB (three of them pass the bound for one spec).
 */

/** A spec whose description is 3,000 `a`s, with `extra` YAML after its `paths`. */
export const hostileSpec = (title: string, extra = "") =>
  `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\n  description: ${"a".repeat(3000)}\npaths: {}\n${extra}`;

const overlay = (actions: string, version = "1.0.0") =>
  `overlay: ${version}\ninfo: { title: t, version: '1' }\nactions:\n${actions}`;

/** A schema `levels` deep: `properties.a` within `properties.a`… */
function deepSchema(levels: number): string {
  let schema = "{type: string}";
  for (let i = 0; i < levels; i++) schema = `{type: object, properties: {a: ${schema}}}`;
  return schema;
}

/** After `paths`: a schema 500 levels deep (250 schemas, each `properties` then `a`). */
export const DEEP = `components:\n  schemas:\n    Deep: ${deepSchema(250)}\n`;

/** After `paths`: a 1 MiB text and twelve places to copy it to, for `overlays/copy.yaml`. */
export const COPY_SOURCE = `x-big: {text: ${"x".repeat(1024 * 1024)}}\nx-t: [${Array.from({ length: 12 }, () => "{}").join(", ")}]\n`;

/** Workspace-relative overlay files. */
export const HOSTILE_OVERLAYS: Record<string, string> = {
  // Lines 4 and 6 backtrack in RegExp; line 8 selects `info` (RE2 repeats at most 1,000 times).
  "overlays/backtracking.yaml": overlay(
    `  - target: "$.info[?match(@, '.*.*.*.*.*.*Z')]"\n    update: { x-a: 1 }\n  - target: "$.info[?match(@, '(a*){9}Z')]"\n    update: { x-b: 1 }\n  - target: "$[?search(@.description, '^a{1000}a*$')]"\n    update: { x-c: 1 }\n`,
  ),
  "overlays/lookahead.yaml": overlay(
    `  - target: $.info\n    update: { x-a: 1 }\n  - target: "$.info[?match(@, '(?=a)a*')]"\n    update: { x-b: 1 }\n`,
  ),
  "overlays/long.yaml": overlay(`  - target: $${".info".repeat(3000)}\n    update: { x-a: 1 }\n`),
  "overlays/descriptions.yaml": overlay("  - target: $..description\n    update: { x-a: 1 }\n"),
  "overlays/copy.yaml": overlay(
    "  - target: $['x-t'][*]\n    copy: $['x-big']\n  - target: $['x-t'][*].text\n    remove: true\n",
    "1.1.0",
  ),
};
