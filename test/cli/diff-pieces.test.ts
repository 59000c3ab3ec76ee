/**
 * A large review printed for people is written in pieces, as `--json` is (a review of Stripe's spec is
 * 4 MB of text): `diff --base` and `diff <base> <head>` print the same text their renderers make of the
 * `--json` result, in many writes of at most about 64 KiB. In process through `runCli`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DiffResult, renderDiff } from "../../src/hosts/cli/diff.ts";
import { type DiffBaseResult, renderDiffBase } from "../../src/hosts/cli/diff-base.ts";
import { runCli } from "../../src/hosts/cli/program.ts";
import { initCommitted } from "../support/git.ts";

/** A spec of `count` operations; the head has none of them. */
function spec(count: number): string {
  const paths = Array.from(
    { length: count },
    (_, i) =>
      `  /things_${i}:\n    get: {operationId: getThing${i}, responses: {"200": {description: ok}}}\n`,
  );
  return `openapi: 3.0.3\ninfo: {title: Things, version: "1"}\npaths:\n${paths.join("")}`;
}

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "gitbook-cli-diff-pieces-"));
  await writeFile(path.join(tmp, "openapi.yaml"), spec(3000));
  initCommitted(tmp);
  await writeFile(path.join(tmp, "openapi.yaml"), spec(0).replace("paths:\n", "paths: {}\n"));
  await writeFile(path.join(tmp, "base.yaml"), spec(3000));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function diff(args: string[]) {
  const writes: string[] = [];
  let stderr = "";
  const code = await runCli(["diff", ...args], {
    env: {},
    cwd: tmp,
    stdout: { write: (text: string) => writes.push(text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, writes, stderr };
}

describe("diff printed for people", () => {
  it.each([
    ["--base main", ["--base", "main"], (json: string) => renderDiffBase(JSON.parse(json) as DiffBaseResult)],
    [
      "two files",
      ["base.yaml", "openapi.yaml"],
      (json: string) => renderDiff(JSON.parse(json) as DiffResult),
    ],
  ])("writes a large review in pieces, the text its renderer makes (%s)", async (_label, args, render) => {
    const json = await diff([...args, "--json"]);
    expect(json.stderr).toBe("");
    const text = await diff(args);
    expect(text.code).toBe(0);
    expect(text.writes.join("")).toBe(render(json.writes.join("")));
    expect(text.writes.join("")).toContain("/things_2999");
    expect(text.writes.length).toBeGreaterThan(2);
    expect(Math.max(...text.writes.map((piece) => piece.length))).toBeLessThan(70 * 1024);
  });
});

describe("diff printed for a CI log", () => {
  it("defuses a line the log would read as a command: a file or a property name can spell one", () => {
    const change = {
      kind: "property-removed",
      operation: "GET /a",
      message: "response 200 ##[error]pwned: property removed",
    };
    const diffText = renderDiff({ breaking: [change], other: [] });
    const baseText = renderDiffBase({
      base: { ref: "main", commit: "c".repeat(40) },
      specs: [
        {
          file: "::error title=pwned::a.yaml",
          slug: "::warning::a",
          against: "base commit",
          breaking: [change],
          other: [],
          allowed: [],
        },
      ],
      removedSpecs: ["::add-mask::b.yaml"],
    });
    for (const text of [diffText, baseText]) {
      expect(text).toContain("#%23[error]pwned");
      expect(text.split("\n").filter((line) => /^\s*::|##\[/.test(line))).toEqual([]);
    }
    expect(baseText).toContain("%3A:error title=pwned::a.yaml → ::warning::a: 1 breaking");
    expect(baseText).toContain("%3A:add-mask::b.yaml: removed spec (breaking).");
  });
});
