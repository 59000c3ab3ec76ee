/**
 * `gitbook-openapi validate [files...]`, in process: the checks sync runs before an upload, offline, as
 * `file:line:col: message` lines; and `sync` against the emulator, which refuses the same structurally
 * invalid spec (never uploaded) while it publishes the valid ones.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { IN_THREAD_BYTES } from "../../src/core/run/spec-work.ts";
import { emptyWorkspace, exampleWorkspace, removeWorkspace } from "../e2e/helpers.ts";
import { runCli } from "./run-cli.ts";

const TOKEN = "validate-command-token-51c9";
const BAD_RESPONSES = [
  "openapi: 3.0.3",
  "info:",
  "  title: Orders",
  '  version: "1.0.0"',
  "paths:",
  "  /orders:",
  "    get:",
  '      responses: "not an object"',
  "",
].join("\n");
const BAD_REF = [
  '{"swagger": "2.0",',
  ' "info": {"title": "Stock", "version": "1"},',
  ' "paths": {"/items": {"get": {"responses": {"200": {"$ref": 7}}}}}}',
  "",
].join("\n");

let workspace: string;
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
  workspace = await exampleWorkspace({ "broken/orders.yaml": BAD_RESPONSES, "broken/stock.json": BAD_REF });
});
afterAll(async () => {
  await emulator?.close();
  await removeWorkspace(workspace);
});

describe("gitbook-openapi validate", () => {
  it("prints each problem once as file:line:col: message and exits 1", async () => {
    const run = await runCli(["validate", "broken/orders.yaml", "broken/stock.json"], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stdout.split("\n")).toEqual([
      'broken/orders.yaml:8:7: `responses` must be a mapping of status codes (`200`, `4XX`, `default`) to responses; it is the string "not an object".',
      "broken/stock.json:3:53: `$ref` must be a string: a URI reference such as `#/components/schemas/Pet`; it is the number 7.",
      "2 files checked: 2 problems in 2 files.",
      "",
    ]);
  });

  it("keeps each problem on one line and no line a CI log reads as a command, whatever the file is named", async () => {
    const names = ["::error file=x::y.yaml", "dir/a\n::error::b.yaml"];
    const hostile = await emptyWorkspace(Object.fromEntries(names.map((name) => [name, BAD_RESPONSES])));
    try {
      const run = await runCli(["validate", ...names], { cwd: hostile });
      expect(run.code).toBe(1);
      const lines = run.stdout.split("\n");
      expect(lines).toHaveLength(4);
      expect(lines[0]).toMatch(/^%3A:error file=x::y\.yaml:8:7: `responses` must be/);
      expect(lines[1]).toMatch(/^dir\/a\\u000a::error::b\.yaml:8:7: `responses` must be/);
      for (const line of lines) expect(line).not.toMatch(/^\s*::/);
    } finally {
      await removeWorkspace(hostile);
    }
  });

  it("exits 0 on valid files, a split spec included, with no token", async () => {
    const run = await runCli(["validate", "api/petstore/openapi.yaml", "specs/billing.openapi.yaml"], {
      cwd: workspace,
    });
    expect(run.stdout).toBe("2 files checked: valid.\n");
    expect(run.code).toBe(0);
  });

  it("finds the specs as sync does when no file is given", async () => {
    const run = await runCli(["validate", "--workspace", workspace], { cwd: path.dirname(workspace) });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^broken\/orders\.yaml:8:7: /m);
    expect(run.stdout).toMatch(/^broken\/stock\.json:3:53: /m);
    const checked = /^(\d+) files checked: 2 problems in 2 files\.$/m.exec(run.stdout);
    expect(Number(checked?.[1])).toBeGreaterThan(4);
  });

  it("reports every finding as an error, as sync does with strict: true; the old family flag is gone", async () => {
    const run = await runCli(["validate", "broken/orders.yaml"], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      'broken/orders.yaml:8:7: `responses` must be a mapping of status codes (`200`, `4XX`, `default`) to responses; it is the string "not an object".\n1 file checked: 1 problem in 1 file.\n',
    );
    const old = await runCli(["validate", "broken/orders.yaml", "--validation-warnings", "schema"], {
      cwd: workspace,
    });
    expect(old.code).toBe(2);
  });

  it("prints the same as JSON with --json, with the counts", async () => {
    const run = await runCli(["validate", "broken/orders.yaml", "broken/stock.json", "--json"], {
      cwd: workspace,
    });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      valid: false,
      checked: 2,
      errors: 2,
      warnings: 0,
      truncated: 0,
      problems: [
        {
          severity: "error",
          file: "broken/orders.yaml",
          line: 8,
          column: 7,
          message: expect.stringMatching(/^`responses` must be a mapping/),
        },
        {
          severity: "error",
          file: "broken/stock.json",
          line: 3,
          column: 53,
          message: expect.stringMatching(/^`\$ref` must be a string/),
        },
      ],
    });
  });

  it("counts every problem of a file whose list is capped, in JSON and in the summary line", async () => {
    // 57 operations whose `responses` is a number: 50 listed, 7 counted.
    const paths = Array.from({ length: 57 }, (_, i) => `  /p${i}:\n    get: {responses: 1}`);
    const many = `openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n${paths.join("\n")}\n`;
    const crowded = await emptyWorkspace({ "many.yaml": many, "one.yaml": BAD_RESPONSES });
    try {
      const json = await runCli(["validate", "many.yaml", "one.yaml", "--json"], { cwd: crowded });
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout) as {
        errors: number;
        truncated: number;
        problems: { file: string; message: string }[];
      };
      expect(report.errors).toBe(58);
      expect(report.truncated).toBe(7);
      expect(report.problems).toHaveLength(51);
      expect(report.problems.every(({ message }) => !/more structural problems/.test(message))).toBe(true);
      const text = await runCli(["validate", "many.yaml", "one.yaml"], { cwd: crowded });
      expect(text.stdout).toMatch(/^many\.yaml: and 7 more structural problems/m);
      expect(text.stdout.trimEnd().split("\n").at(-1)).toBe("2 files checked: 58 problems in 2 files.");
    } finally {
      await removeWorkspace(crowded);
    }
  });

  it("counts the warnings a capped list left out too", async () => {
    // 56 tags with OpenAPI 3.2's `parent` in a 3.1 document: always warnings; 50 listed, 6 counted.
    const tags = Array.from({ length: 56 }, (_, i) => `  - {name: t${i}, parent: root}`);
    const text = `openapi: 3.1.0\ninfo: {title: T, version: '1'}\ntags:\n  - name: root\n${tags.join("\n")}\npaths: {}\n`;
    const parents = await emptyWorkspace({ "tags.yaml": text });
    try {
      const json = await runCli(["validate", "tags.yaml", "--json"], { cwd: parents });
      expect(json.code).toBe(0);
      const report = JSON.parse(json.stdout) as { warnings: number; truncated: number; problems: unknown[] };
      expect([report.warnings, report.truncated, report.problems.length]).toEqual([56, 6, 50]);
      const lines = await runCli(["validate", "tags.yaml"], { cwd: parents });
      expect(lines.stdout.trimEnd().split("\n").at(-1)).toBe("1 file checked: valid, 56 warnings.");
    } finally {
      await removeWorkspace(parents);
    }
  });

  it("refuses a file that is not a spec (exit 2)", async () => {
    const notSpec = await runCli(["validate", "deploy/deployment.yaml"], { cwd: workspace });
    expect(notSpec.code).toBe(2);
    expect(notSpec.stderr).toContain("deploy/deployment.yaml is not an OpenAPI document");
  });
});

describe("messages that name the fix, from the branch the value was meant for (issue 27, item 4)", () => {
  /** A path parameter `{id}` without `required: true`, as `version` writes it. */
  const pathParameter = (version: string, parameter: string) =>
    [
      version,
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets/{id}:",
      "    get:",
      "      parameters:",
      `        - {name: id, in: path, ${parameter}}`,
      "      responses: {'200': {description: ok}}",
      "",
    ].join("\n");
  const specs = {
    // 3.0, 2.0 and 3.1 write a path parameter's rule three ways (a oneOf on `in`, a oneOf of
    // definitions, an if/then): each says the same.
    "path-30.yaml": pathParameter("openapi: 3.0.3", "schema: {type: string}"),
    "path-20.yaml": pathParameter("swagger: '2.0'", "type: string"),
    "path-31.yaml": pathParameter("openapi: 3.1.0", "schema: {type: string}"),
    "range-31.yaml": [
      "openapi: 3.1.0",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      responses:",
      "        '2xx': {description: ok}",
      "",
    ].join("\n"),
    "items-20.yaml": [
      "swagger: '2.0'",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          schema:",
      "            type: array",
      "            items:",
      "              anyOf: [{type: string}, {type: integer}]",
      "",
    ].join("\n"),
  };
  let messages: string;
  beforeAll(async () => {
    messages = await emptyWorkspace(specs);
  });
  afterAll(async () => {
    await removeWorkspace(messages);
  });
  const validate = (file: string) => runCli(["validate", file], { cwd: messages });

  it("a path parameter without `required: true` is told it needs `required: true`, not where `in` may be", async () => {
    for (const [file, place] of [
      ["path-30.yaml", "7:11"],
      ["path-20.yaml", "7:11"],
      ["path-31.yaml", "7:11"],
    ]) {
      const run = await validate(file as string);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe(
        `${file}:${place}: \`parameters[0]\` is a path parameter (\`in: path\`): it needs \`required: true\`.\n1 file checked: 1 problem in 1 file.\n`,
      );
    }
  });

  it("a lowercase `2xx` response key is told to be written `2XX`, with no companion about `default`", async () => {
    const run = await validate("range-31.yaml");
    expect(run.stdout).toBe(
      "range-31.yaml:7:9: `responses` has the key `2xx`, which is not a status code: a range of status codes is written in capitals, `2XX`.\n1 file checked: 1 problem in 1 file.\n",
    );
  });

  it("a Swagger 2.0 `items` holding `anyOf` is told 2.0 has no `anyOf`, not that `items` must be a list", async () => {
    const run = await validate("items-20.yaml");
    expect(run.stdout).toBe(
      "items-20.yaml:12:15: `items` has an unknown field `anyOf` (a Swagger 2.0 schema has no `anyOf`, `oneOf` or `not`: use `allOf`, or declare OpenAPI 3).\n1 file checked: 1 problem in 1 file.\n",
    );
  });
});

describe("sync and a structurally invalid spec", () => {
  const env = () => ({
    GITBOOK_TOKEN: TOKEN,
    GITBOOK_API_URL: emulator.baseUrl,
    GITBOOK_ORGANIZATION: "demo-org",
  });

  it("by default, in check mode: a finding GitBook takes is a warning, a $ref that names nothing fails", async () => {
    const run = await runCli(["sync", "--mode", "check", "--workspace", workspace], { cwd: workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^ *warning: broken\/orders\.yaml:8:7: `responses` must be a mapping/m);
    expect(run.stderr).not.toMatch(/^ *error: broken\/orders\.yaml/m);
    expect(run.stderr).toMatch(/^ *error: broken\/stock\.json:3:53: `\$ref` must be a string/m);
    expect(run.stderr).toMatch(/^1 of \d+ specs did not publish:\n- broken\/stock\.json /m);
  });

  it("in check mode, checks a spec too large for the main thread in the worker, its text left there", async () => {
    // Over IN_THREAD_BYTES (src/core/run/spec-work.ts): prepared in the worker, which keeps a checked
    // spec's text; anything in the main thread that read it would fail the spec.
    const paths = Object.fromEntries(
      Array.from({ length: 3_000 }, (_, i) => [
        `/things${i}`,
        {
          get: {
            summary: `Reads thing ${i} of the large service`,
            responses: { "200": { description: "ok" } },
          },
        },
      ]),
    );
    const large = JSON.stringify({ openapi: "3.0.3", info: { title: "Large", version: "1" }, paths });
    expect(large.length).toBeGreaterThan(IN_THREAD_BYTES);
    const folder = await emptyWorkspace({ "large.json": large });
    try {
      const run = await runCli(["sync", "--mode", "check", "--workspace", folder], { cwd: folder });
      expect(run.stderr).not.toMatch(/error/i);
      expect(run.code).toBe(0);
    } finally {
      await removeWorkspace(folder);
    }
  });

  it("by default publishes a spec whose findings GitBook takes, with each as a warning at its place", async () => {
    const run = await runCli(["sync", "--workspace", workspace, "--slug-prefix", "lenient"], {
      cwd: workspace,
      env: env(),
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.split("\n").filter((line) => line.includes("must be a mapping of status codes"));
    expect(lines.map((line) => line.trim())).toEqual([
      expect.stringMatching(/^warning: broken\/orders\.yaml:8:7: `responses` must be/),
    ]);
    const slugs = emulator.listSpecs("demo-org").map((spec) => spec.slug);
    expect(slugs).toContain("lenient-broken-orders");
    expect(slugs.some((slug) => slug.startsWith("lenient") && slug.includes("stock"))).toBe(false);
  });

  it("with --strict, refuses it at its location, the first line naming the setting, and never uploads it", async () => {
    const run = await runCli(["sync", "--workspace", workspace, "--slug-prefix", "shop", "--strict"], {
      cwd: workspace,
      env: env(),
    });
    expect(run.code).toBe(1);
    const orders = run.stderr.split("\n").filter((line) => /^ *error: broken\/orders\.yaml/.test(line));
    expect(orders.map((line) => line.trim())).toEqual([
      "error: broken/orders.yaml: refused by `strict: true`: 1 finding of the official OpenAPI schema, which GitBook accepts; without `strict` it is a warning and the spec publishes.",
      expect.stringMatching(/^error: broken\/orders\.yaml:8:7: `responses` must be/),
    ]);
    expect(run.stderr).toMatch(
      /- broken\/orders\.yaml \(shop-broken-orders\): failed, INVALID_SPEC: broken\/orders\.yaml: refused by `strict: true`/,
    );
    expect(run.stderr).not.toMatch(/orders\.yaml:8:7: broken\/orders\.yaml/);

    const slugs = emulator.listSpecs("demo-org").map((spec) => spec.slug);
    expect(slugs).toContain("shop-api-petstore");
    expect(slugs).toContain("shop-specs-billing");
    expect(
      slugs.some((slug) => slug.startsWith("shop") && (slug.includes("orders") || slug.includes("stock"))),
    ).toBe(false);
    // The variable does the same.
    const byEnv = await runCli(["sync", "--mode", "check", "--workspace", workspace], {
      cwd: workspace,
      env: { GITBOOK_STRICT: "true" },
    });
    expect(byEnv.stderr).toMatch(/^ *error: broken\/orders\.yaml: refused by `strict: true`/m);
  });
});
