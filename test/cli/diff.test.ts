/**
 * `gitbook-openapi diff <base> <head>`: two spec files, read and bundled as sync reads them (the base in
 * another folder, both split into several files), compared under the review's budget, printed grouped
 * by operation with counts, or as the results' change entries with `--json`; `--fail-on-breaking` and
 * the usage errors give their exit codes. In process through `runCli`, then once as a shell runs it,
 * from source and built.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiffResult } from "../../src/hosts/cli/diff.ts";
import { renderDiff } from "../../src/hosts/cli/diff.ts";
import { runCli as runInProcess } from "../../src/hosts/cli/program.ts";
import { generatedSpec } from "../change-review/fixtures/generated-spec.ts";
import { changeValidator } from "../report/results-schema.ts";
import { CLI_DIST, CLI_SOURCE, runCli } from "./run-cli.ts";

const ROOT_BASE = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok}
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "../shared/pet.yaml"}
  /owners:
    get:
      responses:
        "200": {description: ok}
`;

const PET_BASE = `type: object
required: [id, name]
properties:
  id: {type: string}
  name: {type: string}
`;

/** The head: `/owners` removed, `GET /pets` gains an operation, the pet's `name` is gone (in another file). */
const ROOT_HEAD = ROOT_BASE.replace(/ {2}\/owners:[\s\S]*$/, "")
  .replace('$ref: "../shared/pet.yaml"', '$ref: "../schemas/pet.yaml"')
  .replace(
    "  /pets/{id}:",
    `    post:
      operationId: addPet
      responses:
        "201": {description: created}
  /pets/{id}:`,
  );

const PET_HEAD = `type: object
required: [id]
properties:
  id: {type: string}
`;

let tmp: string;
/** A checkout (a folder with .git) holding the head, split in two files. */
let repo: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "gitbook-cli-diff-"));
  repo = path.join(tmp, "repo");
  const files: Record<string, string> = {
    "repo/api/openapi.yaml": ROOT_HEAD,
    "repo/schemas/pet.yaml": PET_HEAD,
    // The base, outside the checkout: its reference leads out of its folder, inside the current one.
    "base/api/openapi.yaml": ROOT_BASE,
    "base/shared/pet.yaml": PET_BASE,
    "same.yaml": ROOT_HEAD.replace("../schemas/pet.yaml", "repo/schemas/pet.yaml"),
    "added.yaml": `${ROOT_HEAD.replace("../schemas/pet.yaml", "repo/schemas/pet.yaml")}  /toys:
    get:
      responses:
        "200": {description: ok}
`,
    "notes.yaml": "title: not a spec\n",
    "broken.yaml": "openapi: 3.0.3\ninfo: {title: x\n",
  };
  await mkdir(path.join(repo, ".git"), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(tmp, file)), { recursive: true });
    await writeFile(path.join(tmp, file), text);
  }
  // A reference that leads out of the folder its file may read from.
  await mkdir(path.join(tmp, "lone"));
  await writeFile(
    path.join(tmp, "lone/openapi.yaml"),
    ROOT_HEAD.replace("../schemas/pet.yaml", "../../outside-secret.yaml"),
  );
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function diff(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runInProcess(["diff", ...args], {
    env: options.env ?? {},
    cwd: options.cwd ?? tmp,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

const BASE = "base/api/openapi.yaml";
const HEAD = "repo/api/openapi.yaml";

describe("gitbook-openapi diff", () => {
  it("prints every change with counts, breaking first, each under its operation", async () => {
    const run = await diff([BASE, HEAD]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\d+ breaking in \d+ operations, 1 other change in 1 operation$/);
    const breaking = lines.indexOf("Breaking changes:");
    const other = lines.indexOf("Other changes:");
    expect(breaking).toBe(2);
    expect(other).toBeGreaterThan(breaking);
    // The property removed in the referenced file: the split specs were bundled.
    const getPet = lines.indexOf("  GET /pets/{id} (getPet)");
    expect(getPet).toBeGreaterThan(breaking);
    expect(getPet).toBeLessThan(other);
    expect(lines[getPet + 1]).toMatch(/^ {4}- .*name/);
    expect(lines.slice(breaking, other).join("\n")).toMatch(/^ {2}\/owners$/m);
    expect(lines.slice(other)).toEqual([
      "Other changes:",
      "  POST /pets (addPet)",
      expect.stringMatching(/^ {4}- /),
    ]);
  });

  it("prints { breaking, other } with --json, each change as the results carry it", async () => {
    const run = await diff([BASE, HEAD, "--json"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as DiffResult;
    expect(Object.keys(result)).toEqual(["breaking", "other"]);
    const validate = changeValidator();
    for (const change of [...result.breaking, ...result.other]) expect(validate(change)).toEqual([]);
    expect(result.breaking.map((change) => change.operation)).toEqual(
      expect.arrayContaining(["/owners", "GET /pets/{id}"]),
    );
    expect(result.breaking.find((change) => change.operation === "GET /pets/{id}")?.operationId).toBe(
      "getPet",
    );
    expect(result.other).toEqual([
      {
        kind: "operation-added",
        operation: "POST /pets",
        operationId: "addPet",
        message: expect.any(String),
      },
    ]);
  });

  it("exits 1 with --fail-on-breaking when a change is breaking, 0 when none is", async () => {
    const failing = await diff([BASE, HEAD, "--fail-on-breaking"]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain("Breaking changes:");
    expect(failing.stderr).toMatch(
      /^\d+ breaking API changes from base\/api\/openapi\.yaml to repo\/api\/openapi\.yaml \(--fail-on-breaking\)\.\n$/,
    );
    const none = await diff([HEAD, "same.yaml", "--fail-on-breaking"]);
    expect(none).toEqual({ code: 0, stdout: "No API changes.\n", stderr: "" });
    const additions = await diff(["same.yaml", "added.yaml", "--fail-on-breaking"]);
    expect(additions.code).toBe(0);
    expect(additions.stdout).toMatch(/^0 breaking, 1 other change in 1 operation\n/);
    expect(additions.stdout).toContain("  GET /toys\n");
    expect(additions.stderr).toBe("");
  });

  it("refuses a file that cannot be read, is not a spec or cannot be bundled, naming it, with exit code 2", async () => {
    const cases: [string[], string][] = [
      [["missing.yaml", HEAD], "<base>: missing.yaml does not exist."],
      [[BASE, "repo"], "<head>: repo is a folder, not a spec file."],
      [["notes.yaml", HEAD], "<base>: notes.yaml is not an OpenAPI document: "],
      [[BASE, "broken.yaml"], "<head>: broken.yaml is not valid YAML or JSON (line "],
      [
        [BASE, "lone/openapi.yaml"],
        "<head>: lone/openapi.yaml cannot be bundled (its references may lead anywhere inside ",
      ],
    ];
    for (const [args, message] of cases) {
      const run = await diff(args);
      expect(run.code, message).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(`gitbook-openapi: error: ${message}`);
    }
    const outside = await diff([BASE, "lone/openapi.yaml"]);
    expect(outside.stderr).toMatch(/outside-secret\.yaml/);
    expect(outside.stderr).toMatch(/outside the workspace|outside/);
  });

  it("runs under the review's budget: a comparison over it exits 1 saying why; a bad budget exits 2", async () => {
    await writeFile(path.join(tmp, "big-1.json"), JSON.stringify(generatedSpec(1500, "1")));
    await writeFile(path.join(tmp, "big-2.json"), JSON.stringify(generatedSpec(1500, "2")));
    const over = await diff(["big-1.json", "big-2.json"], { env: { GITBOOK_REVIEW_HEAP_MB: "32" } });
    expect(over.code).toBe(1);
    expect(over.stdout).toBe("");
    expect(over.stderr).toContain(
      "gitbook-openapi: error: big-1.json and big-2.json could not be compared: the comparison needed more than its 32 MB of memory.",
    );
    const bad = await diff([BASE, HEAD], { env: { GITBOOK_REVIEW_TIMEOUT_MS: "soon" } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'gitbook-openapi: error: GITBOOK_REVIEW_TIMEOUT_MS: "soon" is not a whole number; expected 1 to 21600000.',
    );
  });

  it("documents its arguments, its JSON and its exit codes in --help", async () => {
    const run = await diff(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: gitbook-openapi diff [options] <base> <head>");
    expect(run.stdout).toContain("--fail-on-breaking");
    expect(run.stdout).toMatch(
      /Exit codes:\n {2}0 {2}compared[\s\S]* {2}1 {2}--fail-on-breaking[\s\S]* {2}2 {2}usage or input error/,
    );
  });
});

describe("renderDiff", () => {
  it("groups by operation, the whole document first, and escapes control characters", () => {
    const text = renderDiff({
      breaking: [
        {
          kind: "operation-removed",
          operation: "DELETE /a",
          operationId: "del\u001b[2Ja",
          message: "removed",
        },
        { kind: "security-added", message: "security requirement added" },
      ],
      other: [],
    });
    expect(text).toBe(
      [
        "2 breaking in 1 operation and the document, 0 other changes",
        "",
        "Breaking changes:",
        "  The whole document",
        "    - security requirement added",
        "  DELETE /a (del\\u001b[2Ja)",
        "    - removed",
        "",
      ].join("\n"),
    );
  });
});

describe.each([
  ["from source", CLI_SOURCE],
  ["built (dist/cli.js)", CLI_DIST],
])("gitbook-openapi diff as a shell runs it, %s", (_label, entry) => {
  it("compares the two files, its own file the comparison's worker", async () => {
    const run = await runCli(["diff", BASE, HEAD, "--json", "--fail-on-breaking"], { cwd: tmp, entry });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as DiffResult;
    expect(result.breaking.map((change) => change.operation)).toContain("/owners");
    expect(run.stderr).toMatch(/breaking API changes? from .* \(--fail-on-breaking\)/);
  });
});
