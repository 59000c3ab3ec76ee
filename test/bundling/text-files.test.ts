import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundleSpec } from "../../src/core/bundling/index.ts";
import { type TempTree, tempTree } from "./temp-tree.ts";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

const csharp = 'using var client = new HttpClient();\nvar menu = await client.GetStringAsync("/menu");\n';
const markdown = "# Introduction\n\nThe **menu** of the café: `GET /menu`.\n";

describe("a $ref to a file that is not YAML or JSON", () => {
  it("is inlined as a string (without a byte order mark): Markdown and code samples, as `redocly bundle` does", async () => {
    tree = tempTree();
    tree.write({
      "openapi/openapi.yaml": [
        "openapi: 3.1.0",
        "info:",
        "  title: Café",
        "  version: 1.0.0",
        "  description: { $ref: docs/intro.md }",
        "paths:",
        "  /menu: { $ref: paths/menu.yaml }",
        "",
      ].join("\n"),
      "openapi/docs/intro.md": markdown,
      "openapi/paths/menu.yaml": [
        "get:",
        "  responses: { '200': { description: { $ref: ../docs/intro.md } } }",
        "  x-codeSamples:",
        "    - lang: C#",
        "      source: { $ref: ../code_samples/C_sharp/menu/get.cs }",
        "    - lang: Text",
        "      source: { $ref: ../code_samples/notes }",
        "",
      ].join("\n"),
      "openapi/code_samples/C_sharp/menu/get.cs": csharp,
      "openapi/code_samples/notes": "\ufeffNo extension at all.\n",
    });
    const result = await bundleSpec(tree.path("openapi/openapi.yaml"), { workspace: tree.root });
    const document = parse(result.text);

    expect(document.info.description).toBe(markdown);
    expect(document.paths["/menu"].get.responses["200"].description).toBe(markdown);
    expect(document.paths["/menu"].get["x-codeSamples"]).toEqual([
      { lang: "C#", source: csharp },
      { lang: "Text", source: "No extension at all.\n" },
    ]);
    expect(result.files.sort()).toEqual([
      "openapi/code_samples/C_sharp/menu/get.cs",
      "openapi/code_samples/notes",
      "openapi/docs/intro.md",
      "openapi/openapi.yaml",
      "openapi/paths/menu.yaml",
    ]);
  });

  it("keeps its text exactly in a JSON bundle too", async () => {
    tree = tempTree();
    const text = 'Line one\r\nA "quoted" \\ backslash, a tab\tand ünïcödé\n\n';
    tree.write({
      "openapi.json": JSON.stringify({
        openapi: "3.0.3",
        info: { title: "T", version: "1", description: { $ref: "README.txt" } },
        paths: {},
      }),
      "README.txt": text,
    });
    const result = await bundleSpec(tree.path("openapi.json"), { workspace: tree.root });

    expect(JSON.parse(result.text).info.description).toBe(text);
  });
});
