/**
 * Checks of GitBook's own OpenAPI extensions (issue 20; list and sources in docs/design/gitbook-extensions.md):
 * each kind of mistake is one warning at its file, line and column; correct uses, unknown `x-` keys and
 * real public specs stay silent; a check-mode run of the CLI prints the warning as `file:line:col`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSpecService, InstantClock } from "../../harness/fakes/fake-spec-service.ts";
import { bundleSpec } from "../../src/core/bundling/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import {
  bundledExtensionWarnings,
  checkGitBookExtensions,
  gitBookExtensionWarnings,
  MAX_WARNINGS_PER_FILE,
  referencedFileWarnings,
} from "../../src/core/shaping/extensions/check.ts";
import { RULES } from "../../src/core/shaping/extensions/rules.ts";
import { loadStructuralCheck, validateSpecDocument } from "../../src/core/validation/index.ts";
import type { ActionHost } from "../../src/hosts/action/host.ts";
import { runAction } from "../../src/hosts/action/run.ts";
import { runCli } from "../cli/run-cli.ts";
import { loadedSpec } from "../support/loaded-spec.ts";

// The check against the official schemas loads on first use (as prepareFile loads it).
beforeAll(loadStructuralCheck);

/** Line and column (from 1) of the first occurrence of `needle` in `text`. */
function where(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`not in the text: ${needle}`);
  return positionAt(text, offset);
}

function positionAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1) as string).length + 1 };
}

function warningsOf(text: string, format: "yaml" | "json" = "yaml", file = `api/spec.${format}`) {
  return gitBookExtensionWarnings(loadedSpec(text, format, file));
}

/** Each mistake, the text that marks its line, and a fragment of the one warning it must give. */
const MISTAKES = `openapi: 3.2.0
info:
  title: Pets
  version: "1"
x-hideTryItPanel: "true"
x-codeSamples:
  - lang: shell
    source: curl
tags:
  - name: animals
  - name: pets
    x-page-title: 42
    x-page-description: [Pets]
    x-page-icon: fa-solid fa-dog
    x-parent: animal
  - name: cats
    x-displayName: "  "
    x-parent: dogs
  - name: dogs
    parent: cats
    x-parent: animals
  - name: secret
    x-internal: "true"
paths:
  /pets:
    get:
      tags: [pets]
      x-stability: Beta
      x-enable-proxy: 1
      x-deprecated-sunset: 12/05/2030
      x-gitbook-ignore: yes
      x-codeSamples:
        - lang: JavaScript
          source: fetch("/pets")
        - lang: Python
        - label: 7
          lang: Go
          source: http.Get("/pets")
      responses:
        "200":
          description: OK
          x-hideSample: "false"
    put:
      x-stability: deprecated
      responses:
        "200":
          description: OK
    post:
      x-codeSamples: []
      x-code-samples: { lang: shell, source: curl }
      responses:
        "201":
          description: Created
components:
  schemas:
    Status:
      type: string
      enum: [LIVE, PENDING, REJECTED]
      x-enumDescriptions:
        LIVE: The project is live.
        PENDING: The project is pending approval.
        REJECTD: The project was rejected.
    Level:
      type: integer
      enum: [1, 2]
      x-enumDescriptions: [Low, High]
    Kind:
      type: string
      enum: [a, b]
      x-gitbook-enum:
        a: { name: A, description: 3 }
        b: { name: B }
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
      x-gitbook-prefix: Token
    key:
      type: apiKey
      in: header
      name: Authorization
      x-gitbook-token-placeholder: 12345
`;

/** [the text on the warning's line, a fragment of its message], in the order of the lines. */
const EXPECTED: [string, string][] = [
  ['x-hideTryItPanel: "true"', '`x-hideTryItPanel` of the document is the text "true"'],
  ["x-codeSamples:", "`x-codeSamples` at the top of the document is a list"],
  ["x-page-title: 42", "`x-page-title` of tag `pets` is the number 42"],
  ["x-page-description: [Pets]", "`x-page-description` of tag `pets` is a list"],
  ["x-page-icon: fa-solid fa-dog", "write x-page-icon: dog."],
  ["x-parent: animal", "names `animal`, which is not declared in `tags`"],
  ['x-displayName: "  "', "`x-displayName` of tag `cats` is blank"],
  ["x-parent: dogs", "nests tags in a circle (`cats` → `dogs` → `cats`)"],
  ["x-parent: animals", "GitBook reads `parent` and ignores `x-parent`"],
  ['x-internal: "true"', "so tag `secret` is published"],
  ["x-stability: Beta", "Write x-stability: beta."],
  ["x-enable-proxy: 1", "`x-enable-proxy` of GET /pets is the number 1"],
  ["x-deprecated-sunset: 12/05/2030", "a date written YYYY-MM-DD"],
  ["x-gitbook-ignore: yes", '`x-gitbook-ignore` of GET /pets is the text "yes"'],
  ["- lang: Python", "sample 2 of `x-codeSamples` of GET /pets needs text in `source` (missing)"],
  ["label: 7", "`label` of sample 3 of `x-codeSamples` of GET /pets is the number 7"],
  ['x-hideSample: "false"', "`x-hideSample` of responses.200 of GET /pets"],
  ["x-stability: deprecated", "For a deprecated operation write `deprecated: true`"],
  ["x-codeSamples: []", "`x-codeSamples` of POST /pets is an empty list"],
  ["x-code-samples: {", "`x-code-samples` of POST /pets is a mapping"],
  ["x-enumDescriptions:", "has no entry for `REJECTED` of its `enum`"],
  ["REJECTD:", "describes `REJECTD`, which is not in its `enum`"],
  ["x-enumDescriptions: [Low, High]", "`x-enumDescriptions` of components.schemas.Level is a list"],
  ["a: { name: A, description: 3 }", "The description of `a` in `x-gitbook-enum`"],
  ["x-gitbook-prefix: Token", "does not apply it to `type: http` schemes"],
  ["x-gitbook-token-placeholder: 12345", "`x-gitbook-token-placeholder` of components.securitySchemes.key"],
];

describe("a spec with each kind of mistake", () => {
  it("gives exactly one warning per mistake, at the line and column of its key (YAML)", () => {
    const warnings = warningsOf(MISTAKES);
    const expected = EXPECTED.map(([needle, fragment]) => {
      const key = needle.startsWith("- ") ? needle : needle.slice(0, needle.indexOf(":") + 1);
      const at = where(MISTAKES, needle);
      // The warning points at the key, or for a list item at the item.
      const column = key.startsWith("- ") ? at.column + 2 : at.column;
      return { line: at.line, column, fragment };
    });
    expect(warnings.map(({ line, column }) => ({ line, column }))).toEqual(
      expected.map(({ line, column }) => ({ line, column })),
    );
    warnings.forEach((warning, index) => {
      expect(warning.file).toBe("api/spec.yaml");
      expect(warning.message).toContain(expected[index]?.fragment);
    });
  });

  it("points at the same keys in JSON, list items included", () => {
    const json = `${JSON.stringify(load(MISTAKES), null, 2)}\n`;
    const warnings = warningsOf(json, "json");
    expect(warnings).toHaveLength(EXPECTED.length);
    const byMessage = new Map(warnings.map((warning) => [warning.message, warning]));
    const sample = [...byMessage.values()].find((w) => w.message.includes("sample 2 of `x-codeSamples`"));
    // The second sample's opening brace, inside GET /pets' x-codeSamples.
    const second = json.indexOf('"lang": "Python"');
    const brace = json.lastIndexOf("{", second);
    expect(sample && { line: sample.line, column: sample.column }).toEqual(positionAt(json, brace));
    const icon = warnings.find((w) => w.message.includes("x-page-icon"));
    expect(icon && { line: icon.line, column: icon.column }).toEqual(where(json, '"x-page-icon"'));
    const rejected = warnings.find((w) => w.message.includes("describes `REJECTD`"));
    expect(rejected && { line: rejected.line, column: rejected.column }).toEqual(where(json, '"REJECTD"'));
  });

  it("are warnings of the validation, never problems: the spec is still published", () => {
    const logger = new MemoryLogger();
    // Even with `strict`, which makes every finding of the schema a problem.
    const problems = validateSpecDocument(loadedSpec(MISTAKES, "yaml", "api/spec.yaml"), logger, {
      strict: true,
    });
    const warnings = logger.entries.filter((entry) => entry.level === "warning");
    expect(problems.filter((problem) => problem.message.includes("x-"))).toEqual([]);
    const icon = warnings.find((entry) => entry.message.includes("`x-page-icon`"));
    expect(icon?.message).toMatch(/^`x-page-icon` of tag `pets`/);
    expect(icon?.location).toEqual({ file: "api/spec.yaml", ...where(MISTAKES, "x-page-icon") });
    expect(logger.entries.filter((entry) => entry.level === "error")).toEqual([]);
  });

  it("keep each warning on one line, whatever the spec's names hold (newlines, `::`, `%0A`)", () => {
    const text = [
      "openapi: 3.1.0",
      'info: {title: T, version: "1"}',
      "paths: {}",
      "tags:",
      '  - name: "pets\\n::warning file=x.yaml::forged"',
      '    x-page-icon: "dog\\n::error::icon"',
      '    x-parent: "a%0A::notice::b"',
      "",
    ].join("\n");
    const logger = new MemoryLogger();
    validateSpecDocument(loadedSpec(text, "yaml", "api/spec.yaml"), logger, { structure: false });
    const warnings = logger.messages("warning");
    expect(warnings).toHaveLength(2);
    for (const message of warnings) {
      expect(message).not.toMatch(/[\r\n]/);
      expect(message).toContain("tag `pets%0A::warning file=x.yaml::forged`");
    }
    expect(warnings.join(" ")).toContain("`a%250A::notice::b`");
  });

  it("suggests the icon's name where one can be read from the value, an example otherwise", () => {
    const text =
      'openapi: 3.1.0\ninfo: {title: T, version: "1"}\ntags:\n  - name: a\n    x-page-icon: Dog\n  - name: b\n    x-page-icon: "🐶"\n  - name: c\n    x-page-icon: fas fa-cat\n';
    expect(warningsOf(text).map((warning) => warning.message.replace(/^.*prefix/, ""))).toEqual([
      ": write x-page-icon: dog.",
      " (for example x-page-icon: user).",
      ": write x-page-icon: cat.",
    ]);
  });

  it("stops at the cap with one line counting the rest", () => {
    const tags = Array.from(
      { length: MAX_WARNINGS_PER_FILE + 7 },
      (_, i) => `  - name: t${i}\n    x-page-icon: 7 Up\n`,
    );
    const text = `openapi: 3.1.0\ninfo: {title: T, version: "1"}\ntags:\n${tags.join("")}`;
    const warnings = warningsOf(text);
    expect(warnings).toHaveLength(MAX_WARNINGS_PER_FILE + 1);
    expect(warnings.at(-1)?.message).toMatch(/^7 more uses of GitBook's extensions/);
  });

  it("walks a schema nested thousands of levels deep without overflowing, naming a deep path in short", () => {
    const nested = (levels: number) => {
      let schema = '{"type":"string","x-deprecated-sunset":3}';
      for (let i = 0; i < levels; i += 1) schema = `{"properties":{"p":${schema}}}`;
      return `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"A":${schema}}}}`;
    };
    const deep = warningsOf(nested(400), "json");
    expect(deep).toHaveLength(1);
    expect(deep[0]?.message).toMatch(
      /^`x-deprecated-sunset` of components\.schemas\.A\.properties\.p.*….*\.p is the number 3;/,
    );
    expect(deep[0]?.message.length).toBeLessThan(400);
    expect(warningsOf(nested(5000), "json")).toEqual([]);
  });

  it("quotes a long value cut short, never halving a character", () => {
    const long = `fa-solid fa-${"d".repeat(100_000)}`;
    const emoji = `${"t".repeat(58)}😀😀 and more`;
    const text = `openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths: {}\ntags:\n  - name: a\n    x-page-icon: ${long}\n  - name: b\n    x-page-icon: "${emoji}"\n    x-page-description: ["${emoji}"]\n    x-stability: "${emoji}"\n`;
    const messages = warningsOf(text).map(({ message }) => message);
    expect(messages[0]).toContain(`is "fa-solid fa-${"d".repeat(47)}…"; GitBook reads the name`);
    expect(messages[0]).toContain("(for example x-page-icon: user)");
    expect(messages.join("\n")).toContain(`is "${"t".repeat(58)}😀…"; GitBook reads the name`);
    expect(Math.max(...messages.map((message) => message.length))).toBeLessThan(400);
    const named = warningsOf(
      `openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths: {}\ntags:\n  - name: ${"n".repeat(100_000)}\n    x-page-icon: 5\n`,
    );
    expect(named.map(({ message }) => message)).toEqual([
      expect.stringMatching(new RegExp(`^\`x-page-icon\` of tag \`${"n".repeat(59)}…\` is the number 5;`)),
    ]);
  });

  it("lists at most ten values of a long enum in a message, and counts the rest", () => {
    const values = Array.from({ length: 10_000 }, (_, i) => `v${i}`);
    const schema = { type: "string", enum: values, "x-enumDescriptions": { bad: "x" } };
    const text = JSON.stringify({
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: {},
      components: { schemas: { E: schema } },
    });
    const messages = warningsOf(text, "json").map(({ message }) => message);
    expect(messages).toEqual([
      expect.stringContaining(
        "has no entry for `v0`, `v1`, `v2`, `v3`, `v4`, `v5`, `v6`, `v7`, `v8`, `v9` and 9990 more of its `enum`",
      ),
      expect.stringContaining("(enum: v0, v1, v2, v3, v4, v5, v6, v7, v8, v9 and 9990 more)"),
    ]);
  });

  it("follows 10,000 nested tags once each, and names a long cycle in a few of its tags", () => {
    const count = 10_000;
    const jsonOf = (parent: (i: number) => string) =>
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "T", version: "1" },
        paths: {},
        tags: Array.from({ length: count }, (_, i) => ({ name: `t${i}`, "x-parent": parent(i) })),
      });
    // A chain (each tag under the next, the last under an undeclared one): one warning, at its end.
    const chain = warningsOf(
      jsonOf((i) => `t${i + 1}`),
      "json",
    );
    expect(chain.map(({ message }) => message)).toEqual([
      expect.stringContaining(`names \`t${count}\`, which is not declared`),
    ]);
    // A tail into a cycle of the last two: the cycle once, at its first tag.
    const rho = warningsOf(
      jsonOf((i) => (i === count - 1 ? `t${count - 2}` : `t${i + 1}`)),
      "json",
    );
    expect(rho.map(({ message }) => message)).toEqual([
      expect.stringContaining(
        `tag \`t${count - 2}\` nests tags in a circle (\`t${count - 2}\` → \`t${count - 1}\` → \`t${count - 2}\`)`,
      ),
    ]);
    // One cycle through every tag: reported once, at the first, its names cut short.
    const cycle = warningsOf(
      jsonOf((i) => `t${(i + 1) % count}`),
      "json",
    );
    expect(cycle).toHaveLength(1);
    expect(cycle[0]?.message).toContain(
      "(`t0` → `t1` → `t2` → `t3` → `t4` → `t5` → `t6` → `t7` → `t8` → `t9` → … 9990 more → `t0`)",
    );
    expect(cycle[0]?.message.length).toBeLessThan(400);
  });
});

/** Every extension used as GitBook's documentation shows it. */
const CORRECT = `openapi: 3.2.0
info:
  title: Pets
  version: "1"
x-hideTryItPanel: false
x-codeSamples: false
x-enable-proxy: true
x-expandAllResponses: true
x-expandAllModelSections: false
x-gitbook-mcp-url: https://mcp.example.com
servers:
  - url: https://{region}.example.com
    x-gitbook-prefill: "{{ visitor.claims.url }}"
    variables:
      region:
        default: eu
        x-gitbook-prefill: "{{ visitor.claims.region }}"
tags:
  - name: organization
    x-page-title: Organization
    x-page-description: Manage organizations.
    x-page-icon: building
  - name: admin
    x-displayName: Admins
    x-parent: organization
    x-page-icon: user-shield
  - name: user
    parent: organization
    x-page-icon: "0"
  - name: internal
    x-internal: true
paths:
  /users:
    x-gitbook-mcp-url: https://mcp.example.com/users
    get:
      tags: [user]
      x-hideTryItPanel: true
      x-stability: experimental
      deprecated: true
      x-deprecated-sunset: 2030-12-05
      x-gitbook-mcp: true
      x-enable-proxy: false
      x-expandAllResponses: false
      x-codeSamples:
        - lang: cURL
          label: CLI
          source: |
            curl -L 'https://api.gitbook.com/v1/user'
        - lang: JavaScript
          source: fetch("/users")
        - $ref: "#/components/x-samples/python"
      responses:
        "200":
          description: OK
          x-hideSample: true
    put:
      x-stability: stable
      responses:
        "200":
          description: OK
    post:
      x-codeSamples: false
      x-code-samples:
        - { lang: Go, label: Go SDK, source: client.Users.Create() }
      x-internal: false
      x-gitbook-ignore: true
      x-stability: beta
      responses:
        "201":
          description: Created
webhooks:
  newUser:
    post:
      x-stability: alpha
      x-codeSamples:
        - { lang: shell, source: echo }
      responses:
        "200":
          description: OK
components:
  x-samples:
    python: { lang: Python, source: requests.get("/users") }
  schemas:
    project_status:
      type: string
      enum: [LIVE, PENDING, REJECTED, null]
      x-enumDescriptions:
        LIVE: The project is live.
        PENDING: The project is pending approval.
        REJECTED: The project was rejected.
      x-stability: beta
      x-internal: false
    level:
      type: integer
      enum: [1, 2]
      x-enumDescriptions: { "1": Low, "2": High }
      x-gitbook-enum:
        "1": { name: Low, description: The lowest. }
        "2": {}
    anything:
      x-enumDescriptions:
        any: value
  securitySchemes:
    apiKey:
      type: apiKey
      in: header
      name: Authorization
      x-gitbook-prefix: Token
      x-gitbook-token-placeholder: YOUR_CUSTOM_TOKEN
      x-gitbook-prefill: "{{ visitor.claims.token }}"
`;

describe("correct uses", () => {
  it("stay silent, in YAML and in JSON", () => {
    expect(warningsOf(CORRECT)).toEqual([]);
    expect(warningsOf(JSON.stringify(load(CORRECT)), "json")).toEqual([]);
  });

  it("cover every row of the table", () => {
    const used = new Set(CORRECT.match(/\b(?:x-[\w-]+|parent)(?=:)/g));
    const missing = RULES.flatMap((rule) => rule.keys).filter((key) => !used.has(key));
    expect(missing).toEqual(["x-custom-examples"]);
  });

  it("unknown `x-` keys and GitBook's keys outside the places GitBook reads them are never reported", () => {
    const text = `openapi: 3.1.0
info:
  title: T
  version: "1"
  x-page-icon: 42
x-logo: { url: 3 }
x-internal: "no"
x-stability: whatever
tags:
  - name: t
    x-tagGroup: [1]
    x-parents: nowhere
paths:
  /a:
    x-internal: maybe
    get:
      x-page-title: 3
      x-codeSample: 1
      x-enumDescriptions: { a: 1 }
      parameters:
        - name: q
          in: query
          x-internal: "yes"
          schema: { type: string }
          example: { x-codeSamples: 3, x-enumDescriptions: [1] }
      responses:
        "200":
          description: OK
          content:
            application/json:
              examples:
                one:
                  value: { x-stability: nope, x-hideSample: 3 }
components:
  schemas:
    Location:
      type: object
      x-parent: my.module.LocationLogic
`;
    expect(warningsOf(text).map((w) => w.message)).toEqual([
      // The one GitBook key in a place it reads: x-enumDescriptions without an enum, whose value is no text.
      expect.stringContaining("The description of `a` in `x-enumDescriptions` of GET /a is the number 1"),
    ]);
  });
});

describe("a split spec", () => {
  it("reads a JSON spec's own document when the bundler parses it anyway, and parses one sent as written apart", () => {
    const text = JSON.stringify({
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: { "/a": { $ref: "./a.json" } },
      tags: [{ name: "a", "x-page-icon": 7 }],
    });
    const spec = loadedSpec(text, "json", "api/spec.json");
    let reads = 0;
    const counted = (asWritten: boolean) => ({
      path: spec.path,
      text: spec.text,
      format: spec.format,
      get document() {
        reads += 1;
        return spec.document;
      },
      ...(asWritten ? { referencesOtherFiles: false as const } : {}),
    });
    expect(gitBookExtensionWarnings(counted(false))).toHaveLength(1);
    expect(reads).toBe(1);
    expect(gitBookExtensionWarnings(counted(true))).toHaveLength(1);
    expect(reads).toBe(1);
  });

  it("is checked in each file it references, at the lines of that file (YAML and JSON)", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-extensions-split-"));
    try {
      await mkdir(path.join(workspace, "paths"));
      const root = `openapi: 3.1.0
info: { title: Split, version: "1" }
tags:
  - name: pets
paths:
  /pets:
    $ref: paths/pets.yaml
components:
  schemas:
    Status:
      $ref: status.json
`;
      const pets = `get:
  tags: [pets]
  x-stability: Experimental
  x-codeSamples:
    - lang: shell
    - $ref: ../samples/node.yaml
    - $ref: ../samples/go.yaml
  responses:
    "200":
      description: OK
      x-hideSample: "true"
`;
      const status = `{
  "type": "string",
  "enum": ["on", "off"],
  "x-enumDescriptions": { "on": "Running.", "of": "Stopped." }
}
`;
      await mkdir(path.join(workspace, "samples"));
      const node = "lang: JavaScript\nsource: fetch('/pets')\n";
      const go = "lang: Go\nlabel: 2\n";
      await writeFile(path.join(workspace, "samples/node.yaml"), node);
      await writeFile(path.join(workspace, "samples/go.yaml"), go);
      await writeFile(path.join(workspace, "openapi.yaml"), root);
      await writeFile(path.join(workspace, "paths/pets.yaml"), pets);
      await writeFile(path.join(workspace, "status.json"), status);
      const bundled = await bundleSpec(path.join(workspace, "openapi.yaml"), { workspace });
      const warnings = referencedFileWarnings(bundled.document, bundled.referenced ?? []);
      const placed = warnings.map(({ file, line, column }) => ({ file, line, column }));
      expect(placed).toEqual([
        { file: "paths/pets.yaml", ...where(pets, "x-stability") },
        { file: "paths/pets.yaml", ...where(pets, "lang: shell") },
        { file: "paths/pets.yaml", ...where(pets, "x-hideSample") },
        // A sample brought by `$ref`: at the top of its file, and at its label.
        { file: "samples/go.yaml", line: 1, column: 1 },
        { file: "samples/go.yaml", ...where(go, "label") },
        { file: "status.json", ...where(status, '"x-enumDescriptions"') },
        { file: "status.json", ...where(status, '"of"') },
      ]);
      expect(warnings[0]?.message).toContain("`x-stability` of the GET operation");
      expect(warnings[1]?.message).toContain("sample 1 of `x-codeSamples` of the GET operation");
      expect(warnings[2]?.message).toContain("`x-hideSample` of response 200");
      expect(warnings[3]?.message).toContain(
        "item 3 of `x-codeSamples` that reaches it by $ref) needs text in `source`",
      );
      // The check sync runs, on the bundle: the same places, each in the file that writes it.
      const onBundle = bundledExtensionWarnings(
        loadedSpec(root, "yaml", "openapi.yaml"),
        bundled.document,
        bundled.referenced ?? [],
      );
      const inOrder = (list: { file: string; line?: number; column?: number }[]) =>
        list
          .map(({ file, line, column }) => `${file}:${line}:${column}`)
          .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
      expect(inOrder(onBundle)).toEqual(inOrder(placed));
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

describe("real public specs", () => {
  const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));
  let workspace: string;
  beforeAll(async () => {
    workspace = await mkdtemp(path.join(tmpdir(), "gitbook-extensions-"));
    execFileSync("tar", ["-xzf", `${fixtures}digitalocean-openapi.tar.gz`, "-C", workspace]);
  }, 60_000);
  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  it.each(["openapi.yaml", "openapi.json"])(
    "GitBook's own API description (@gitbook/api %s): its titles, icons, parents and MCP badges are silent",
    async (name) => {
      const file = fileURLToPath(new URL(`../../node_modules/@gitbook/api/spec/${name}`, import.meta.url));
      const text = await readFile(file, "utf8");
      const uses = (key: string) => text.match(new RegExp(`"?${key}"?:`, "g"))?.length ?? 0;
      expect(uses("x-page-icon")).toBeGreaterThanOrEqual(20);
      expect(uses("x-parent")).toBeGreaterThanOrEqual(30);
      expect(uses("x-page-title")).toBeGreaterThanOrEqual(50);
      expect(uses("x-gitbook-mcp")).toBeGreaterThanOrEqual(100);
      const spec = loadedSpec(text, name.endsWith(".json") ? "json" : "yaml", `spec/${name}`);
      expect(gitBookExtensionWarnings(spec)).toEqual([]);
    },
  );

  it("DigitalOcean: 648 x-codeSamples and its tags' x-displayName, in 2,850 files, are silent", async () => {
    const root = path.join(workspace, "specification/DigitalOcean-public.v2.yaml");
    const bundled = await bundleSpec(root, { workspace });
    const document = load(bundled.text) as Record<string, unknown>;
    const text = JSON.stringify(document);
    expect(text.match(/"x-codeSamples":/g)?.length).toBeGreaterThanOrEqual(600);
    expect(text).toContain('"x-displayName":');
    // In each file where it is written, as the pipeline checks a split spec, and in the bundle.
    expect(referencedFileWarnings(bundled.document, bundled.referenced ?? [])).toEqual([]);
    expect(checkGitBookExtensions(document)).toEqual([]);
  }, 120_000);

  it("DigitalOcean with one mistake in one of its operation files: one warning, at that file's line", async () => {
    const file = "specification/resources/volumes/volumeActions_post.yml";
    const text = await readFile(path.join(workspace, file), "utf8");
    expect(text).toContain("\nx-codeSamples:\n");
    const broken = text.replace("\nx-codeSamples:\n", "\nx-stability: Beta\nx-codeSamples:\n");
    await writeFile(path.join(workspace, file), broken);
    try {
      const bundled = await bundleSpec(path.join(workspace, "specification/DigitalOcean-public.v2.yaml"), {
        workspace,
      });
      const warnings = referencedFileWarnings(bundled.document, bundled.referenced ?? []);
      expect(warnings).toEqual([
        {
          file,
          ...where(broken, "x-stability: Beta"),
          message: expect.stringContaining('`x-stability` of the operation is the text "Beta"'),
        },
      ]);
      // Checked on the bundle, as sync does: the same place, through DigitalOcean's chains of $ref.
      const rootFile = "specification/DigitalOcean-public.v2.yaml";
      const rootText = await readFile(path.join(workspace, rootFile), "utf8");
      const onBundle = bundledExtensionWarnings(
        loadedSpec(rootText, "yaml", rootFile),
        bundled.document,
        bundled.referenced ?? [],
      );
      expect(onBundle).toEqual([
        {
          file,
          ...where(broken, "x-stability: Beta"),
          message: expect.stringContaining('`x-stability` of POST /v2/volumes/actions is the text "Beta"'),
        },
      ]);
    } finally {
      await writeFile(path.join(workspace, file), text);
    }
  }, 120_000);

  // Large real specs without GitBook's extensions, and Docker's with `x-displayName` on its tags: the
  // committed Brotli fixtures (test/fixtures/REAL-SPECS.md says where each comes from).
  const REAL_SPECS = fileURLToPath(new URL("../fixtures/real-specs/", import.meta.url));
  it.each(["stripe-spec3.yaml", "kubernetes-swagger.json", "openai-openapi.yaml", "moby-swagger.yaml"])(
    "%s: no warning",
    (file) => {
      const text = brotliDecompressSync(readFileSync(path.join(REAL_SPECS, `${file}.br`))).toString("utf8");
      const format = file.endsWith(".yaml") ? "yaml" : "json";
      const spec = loadedSpec(text, format, file);
      expect(gitBookExtensionWarnings(spec)).toEqual([]);
      // And the walk itself, which the quick look for the table's keys may spare a spec.
      expect(checkGitBookExtensions(format === "json" ? JSON.parse(text) : spec.document)).toEqual([]);
    },
  );
});

describe("the Action in check mode", () => {
  it("logs the warning with its file, line and column, which the Action writes as an annotation", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-extensions-action-"));
    try {
      const text =
        'openapi: 3.1.0\ninfo: {title: Pets, version: "1"}\npaths:\n  /pets:\n    get:\n      x-stability: GA\n      responses:\n        "200": {description: OK}\n';
      await writeFile(path.join(workspace, "pets.yaml"), text);
      const logger = new MemoryLogger();
      const failures: string[] = [];
      const host: ActionHost = {
        readInput: (name) => ({ token: "t", organization: "org", mode: "check" })[name] ?? "",
        setSecret: () => {},
        setOutput: () => {},
        appendSummary: async () => {},
        setFailed: (message) => {
          failures.push(message);
        },
        logger,
        env: { GITHUB_WORKSPACE: workspace, GITHUB_EVENT_NAME: "push", GITHUB_REPOSITORY: "acme/widgets" },
        readFile: () => "{}",
      };
      await runAction(host, {
        createService: () => new FakeSpecService(),
        createComments: () => undefined,
        clock: new InstantClock(),
      });
      expect(failures).toEqual([]);
      const warnings = logger.entries.filter((entry) => entry.message.includes("x-stability"));
      expect(warnings).toEqual([
        {
          level: "warning",
          message: expect.stringContaining('`x-stability` of GET /pets is the text "GA"'),
          location: { file: "pets.yaml", ...where(text, "x-stability") },
        },
      ]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

describe("the command line in check mode", () => {
  it("prints the warning with the file, line and column, and checks the spec as valid", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-extensions-cli-"));
    try {
      await mkdir(path.join(workspace, "specs"));
      const text =
        'openapi: 3.0.3\ninfo:\n  title: Pets\n  version: "1"\ntags:\n  - name: pets\n    x-page-icon: fa-dog\npaths: {}\n';
      await writeFile(path.join(workspace, "specs", "pets.yaml"), text);
      const run = await runCli(["sync", "--workspace", workspace, "--mode", "check"]);
      expect(run.code).toBe(0);
      const { line, column } = where(text, "x-page-icon");
      expect(run.stderr).toContain(
        `warning: specs/pets.yaml:${line}:${column}: \`x-page-icon\` of tag \`pets\` is "fa-dog"`,
      );
      expect(run.stderr).toContain("write x-page-icon: dog.");
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });

  it("points into the file of a split spec where the mistake is written", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-extensions-cli-split-"));
    try {
      await mkdir(path.join(workspace, "specs", "paths"), { recursive: true });
      const root =
        'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "1"\npaths:\n  /pets:\n    $ref: paths/pets.yaml\n';
      const pets = 'get:\n  x-internal: "true"\n  responses:\n    "200":\n      description: OK\n';
      await writeFile(path.join(workspace, "specs", "pets.yaml"), root);
      await writeFile(path.join(workspace, "specs", "paths", "pets.yaml"), pets);
      const run = await runCli(["sync", "--workspace", workspace, "--mode", "check"]);
      expect(run.code).toBe(0);
      const { line, column } = where(pets, "x-internal");
      expect(run.stderr).toContain(
        // Checked on the bundle, so the operation is named by its path, located in the file that writes it.
        `warning: specs/paths/pets.yaml:${line}:${column}: \`x-internal\` of GET /pets is the text "true"`,
      );
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

describe("a code sample whose `source` is a $ref to a code file", () => {
  it("is judged as the text the bundle inlines: no warning for it, and a wrong sample beside it still located", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-extensions-sample-ref-"));
    try {
      await mkdir(path.join(workspace, "code"));
      const root = [
        "openapi: 3.1.0",
        "info: {title: Samples, version: 1.0.0}",
        "paths:",
        "  /pets:",
        "    get:",
        "      x-codeSamples:",
        "        - lang: Shell",
        "          label: curl",
        "          source:",
        "            $ref: code/list-pets.sh",
        "        - lang: JavaScript",
        "          source: 42",
        "      responses:",
        '        "200": {description: OK}',
        "",
      ].join("\n");
      await writeFile(path.join(workspace, "openapi.yaml"), root);
      await writeFile(path.join(workspace, "code", "list-pets.sh"), "curl https://api.example.com/pets\n");
      for (const args of [
        ["sync", "--workspace", workspace, "--mode", "check"],
        ["validate", "--workspace", workspace],
      ]) {
        const run = await runCli(args);
        expect(run.code, run.stderr).toBe(0);
        // `validate` reports on stdout, `sync` on stderr.
        const output = `${run.stdout}${run.stderr}`;
        const warnings = output.split("\n").filter((line) => line.includes("x-codeSamples"));
        const { line } = where(root, "- lang: JavaScript");
        expect(warnings, args[0]).toEqual([expect.stringContaining(`openapi.yaml:${line}:`)]);
        expect(warnings[0]).toContain("sample 2 of `x-codeSamples` of GET /pets needs text in `source`");
      }
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

describe("a shaped spec", () => {
  it("is checked as shaped: a misuse an overlay fixes is not warned, one it keeps is, at its line", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-extensions-shaped-"));
    try {
      await mkdir(path.join(workspace, "specs"));
      const text =
        'openapi: 3.0.3\ninfo:\n  title: Pets\n  version: "1"\ntags:\n  - name: pets\n    x-page-icon: fa-dog\n  - name: stores\n    x-page-icon: fa-store\npaths: {}\n';
      await writeFile(path.join(workspace, "specs", "pets.yaml"), text);
      await writeFile(
        path.join(workspace, "fix.overlay.yaml"),
        "overlay: 1.0.0\ninfo: {title: Icons, version: 1.0.0}\nactions:\n  - target: $.tags[0]\n    update: {x-page-icon: dog}\n",
      );
      await writeFile(
        path.join(workspace, "gitbook-openapi.yaml"),
        "specs:\n  specs/pets.yaml:\n    overlays: [fix.overlay.yaml]\n",
      );
      const run = await runCli(["sync", "--workspace", workspace, "--mode", "check"]);
      expect(run.code, run.stderr).toBe(0);
      const warnings = run.stderr.split("\n").filter((line) => line.includes("x-page-icon"));
      const { line, column } = where(text, "x-page-icon: fa-store");
      expect(warnings).toEqual([expect.stringContaining(`specs/pets.yaml:${line}:${column}: `)]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

describe("an overlay that adds a misuse of GitBook's extensions", () => {
  it("is warned about after shaping, naming the path in the shaped document, and the spec still checks", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-extensions-overlay-"));
    try {
      await mkdir(path.join(workspace, "specs"));
      await writeFile(
        path.join(workspace, "specs", "pets.yaml"),
        'openapi: 3.0.3\ninfo:\n  title: Pets\n  version: "1"\ntags:\n  - name: pets\npaths: {}\n',
      );
      await writeFile(
        path.join(workspace, "gitbook.overlay.yaml"),
        "overlay: 1.0.0\ninfo: {title: Icons, version: 1.0.0}\nactions:\n  - target: $.tags[0]\n    update: {x-page-icon: 12, x-page-title: Pets}\n",
      );
      await writeFile(
        path.join(workspace, "gitbook-openapi.yaml"),
        "specs:\n  specs/pets.yaml:\n    overlays: [gitbook.overlay.yaml]\n",
      );
      const run = await runCli(["sync", "--workspace", workspace, "--mode", "check"]);

      expect(run.code).toBe(0);
      const warnings = run.stderr.split("\n").filter((line) => line.includes("x-page-icon"));
      expect(warnings).toEqual([
        expect.stringMatching(/^ *warning: specs\/pets\.yaml: after shaping, `tags\.0\.x-page-icon`: .*12/),
      ]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

describe("a file published to two audiences", () => {
  it("gives its own warnings once, not once per audience", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-extensions-audiences-"));
    try {
      await mkdir(path.join(workspace, "specs"));
      const text =
        'openapi: 3.0.3\ninfo:\n  title: Pets\n  version: "1"\ntags:\n  - name: pets\n    x-page-icon: fa-dog\npaths: {}\n';
      await writeFile(path.join(workspace, "specs", "pets.yaml"), text);
      await writeFile(
        path.join(workspace, "gitbook-openapi.yaml"),
        "specs:\n  specs/pets.yaml:\n    audiences:\n      public: { slug: pets, remove-internal: true }\n      internal: { slug: pets-internal }\n",
      );
      const run = await runCli(["sync", "--workspace", workspace, "--mode", "check"]);

      expect(run.code).toBe(0);
      const { line, column } = where(text, "x-page-icon");
      const warnings = run.stderr.split("\n").filter((entry) => entry.includes("x-page-icon"));
      expect(warnings).toEqual([
        expect.stringContaining(`warning: specs/pets.yaml:${line}:${column}: \`x-page-icon\``),
      ]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
