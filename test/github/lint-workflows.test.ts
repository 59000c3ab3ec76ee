import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  collectWorkflows,
  isWorkflow,
  main,
  markdownPages,
  yamlBlocks,
} from "../../scripts/lint-workflows.ts";

const SCRIPT = join(import.meta.dirname, "../../scripts/lint-workflows.ts");

const VALID = `on:
  pull_request:
    types: [opened, synchronize, reopened, closed]
permissions:
  contents: read
  pull-requests: write
jobs:
  publish:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@v4
      - run: echo "\${{ github.event.pull_request.number }}"
`;

const BROKEN = `on: push
jobs:
  publish:
    runs-on: ubuntu-latest
    stepz:
      - run: echo hi
`;

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function repository(readme: string, workflows: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), "lint-workflows-"));
  roots.push(root);
  writeFileSync(join(root, "README.md"), readme);
  mkdirSync(join(root, ".github", "workflows"), { recursive: true });
  for (const [name, text] of Object.entries(workflows))
    writeFileSync(join(root, ".github", "workflows", name), text);
  return root;
}

function readme(...blocks: string[]): string {
  return [
    "# Example",
    "",
    "Some text.",
    "",
    ...blocks.flatMap((b) => ["```yaml", b.trimEnd(), "```", ""]),
  ].join("\n");
}

describe("lint-workflows", () => {
  it("extracts only whole workflows from README yaml blocks", () => {
    const text = readme(VALID, "with:\n  token: x\n");
    expect(yamlBlocks(text).map((b) => b.firstLine)).toEqual([6, 21]);
    expect(yamlBlocks(text).map((b) => isWorkflow(b.text))).toEqual([true, false]);
    const root = repository(text, { "ci.yml": VALID, "notes.txt": "x" });
    expect(collectWorkflows(root).map((s) => s.label ?? s.name)).toEqual([
      ".github/workflows/ci.yml",
      "block at line 6",
    ]);
  });

  it("passes valid workflows", async () => {
    const lines: string[] = [];
    const code = await main(repository(readme(VALID), { "ci.yml": VALID }), (l) => lines.push(l));
    expect(lines.at(-1)).toContain("2 workflow(s) passed");
    expect(code).toBe(0);
  });

  it("reports a broken README workflow with its file, block and line", async () => {
    const lines: string[] = [];
    const code = await main(repository(readme(VALID, BROKEN), { "ci.yml": VALID }), (l) => lines.push(l));
    expect(code).toBe(1);
    expect(lines.some((l) => /^README\.md:25:5: unexpected key "stepz".*\(block at line 21\)$/.test(l))).toBe(
      true,
    );
    expect(lines.some((l) => l.startsWith(".github/workflows/ci.yml"))).toBe(false);
  });

  it("lints the workflows of the guides under docs/, naming the page", async () => {
    const root = repository(readme(VALID), { "ci.yml": VALID });
    mkdirSync(join(root, "docs", "ci"), { recursive: true });
    writeFileSync(join(root, "docs", "ci", "guide.md"), readme(VALID, BROKEN));
    expect(markdownPages(root)).toEqual(["README.md", "docs/ci/guide.md"]);
    const lines: string[] = [];
    const code = await main(root, (l) => lines.push(l));
    expect(code).toBe(1);
    expect(lines.some((l) => /^docs\/ci\/guide\.md:25:5: unexpected key "stepz"/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith("README.md"))).toBe(false);
  });

  it("exits non-zero from the command line on a broken workflow file", async () => {
    const root = repository(readme(), { "broken.yaml": BROKEN });
    const run = promisify(execFile)(process.execPath, [SCRIPT, root]);
    const failure = await run.then(
      () => undefined,
      (error: { code?: number; stdout?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toContain(".github/workflows/broken.yaml:5:5:");
  });
});
