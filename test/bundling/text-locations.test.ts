/**
 * `textPlaces` against the walk over the built document (`bundledPathSource`, then `locateKeyPaths`),
 * which the review used before for a spec of one file: on Stripe's spec (test/fixtures/real-specs, its
 * long references folded as `$ref: >-`) and on small texts written to hold every form a reference or a
 * key takes (quoted, folded, in list items, chained, circular, missing, escaped), in YAML and as JSON,
 * key paths drawn by walks through the document that follow its references (fixed seed), with keys it
 * does not have. Where the text is one the scanners cannot be sure of, it gives up and the review's
 * placement (`placesOf`) builds the document and places as before.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bundledPathSource } from "../../src/core/bundling/bundled-locations.ts";
import { textPlaces } from "../../src/core/bundling/text-locations.ts";
import { placesOf } from "../../src/core/change-review/change-places.ts";
import type { TextFormat } from "../../src/core/documents/format.ts";
import { locateKeyPaths } from "../../src/core/documents/locate-many.ts";
import { parseSource } from "../../src/core/documents/source-text.ts";

/** The places the walk over the built document gives: the line and whether the path was reached. */
function documentPlaces(text: string, format: TextFormat, document: unknown, keyPaths: string[][]) {
  const root = { file: "spec", text, format, document };
  const sources = keyPaths.map((keyPath) => bundledPathSource(root, [], keyPath));
  const located = locateKeyPaths(
    text,
    format,
    sources.map((source) => source.keyPath),
  );
  return sources.map((source, index) => ({
    line: located[index]?.position.line,
    reached: source.reached,
  }));
}

function textLines(text: string, format: TextFormat, keyPaths: string[][]) {
  return textPlaces(text, format, keyPaths)?.map(({ position, reached }) => ({
    line: position.line,
    reached,
  }));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** The node a local `#/…` reference names, or undefined. */
function target(document: unknown, ref: string): unknown {
  let node = document;
  for (const token of ref.slice(2).split("/")) {
    if (!isRecord(node)) return undefined;
    node = node[decodeURIComponent(token).replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return node;
}

/**
 * Key paths as a reader of the document takes them: each choice picks a key of the node reached (its
 * references followed first), or a key it does not have, or its `$ref` itself.
 */
function keyPathsOf(document: unknown, count: number, seed: number, start: string[] = []): string[][] {
  const choices = fc.array(fc.nat(), { minLength: 1, maxLength: 12 });
  return fc.sample(choices, { seed, numRuns: count }).map((picks) => {
    const keyPath = [...start];
    let node = start.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), document);
    for (const pick of picks) {
      for (let hops = 0; hops < 20 && isRecord(node) && typeof node.$ref === "string"; hops++) {
        if (pick % 13 === 11) break;
        const next = node.$ref.startsWith("#/") ? target(document, node.$ref) : undefined;
        if (next === undefined) break;
        node = next;
      }
      if (!isRecord(node)) break;
      const keys = Object.keys(node);
      if (pick % 13 === 12 || keys.length === 0) {
        keyPath.push("nowhere");
        break;
      }
      const key = keys[pick % keys.length] as string;
      keyPath.push(key);
      node = node[key];
    }
    return keyPath;
  });
}

/** Every form of reference and key the walk meets, each reference inside the document. */
const FORMS = `openapi: 3.0.3
info:
  title: Forms
  version: "1"
paths:
  /pets:
    get:
      parameters:
        - $ref: '#/components/parameters/Limit'
        - $ref: "#/components/parameters/Chained"
        - name: inline
          in: query
      responses:
        "200":
          $ref: >-
            #/components/responses/PetList
        "404":
          $ref: '#/components/responses/Missing'
        default:
          $ref: |-
            #/components/responses/PetList
  "/pets/{id}":
    'get':
      responses:
        "200":
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'   # the pet
  /odd:
    $ref: '#/components/x-paths/a~1b%20c'
  /loop:
    $ref: '#/components/x-paths/loop'
  /root:
    $ref: '#'
  /scalar:
    $ref: '#/info/title'
  /clipped:
    $ref: |
      #/components/x-paths/a~1b%20c

components:
  parameters:
    Limit:
      name: limit
      in: query
    Chained:
      $ref: '#/components/parameters/Limit'
  responses:
    PetList:
      description: ok
      content:
        application/json:
          schema:
            type: array
            items:
              $ref: '#/components/schemas/Pet'
  schemas:
    Pet:
      type: object
      properties:
        id:
          type: string
        $ref:
          type: string
        owner:
          $ref: '#/components/schemas/Pet'
  x-paths:
    a/b c:
      get:
        description: escaped
    loop:
      $ref: '#/components/x-paths/loop'
`;

describe("textPlaces", () => {
  it.each([
    ["yaml", FORMS],
    ["yaml", FORMS.replaceAll("\n", "\r\n")],
    ["json", JSON.stringify(parseSource(FORMS, false), null, 2)],
  ] as const)("places as the built document does, in %s (%#)", (format, text) => {
    const document = parseSource(text, format === "json");
    const keyPaths = [
      ...keyPathsOf(document, 300, 28, ["paths"]),
      ...keyPathsOf(document, 100, 29),
      [],
      ["paths", "/loop", "get"],
      ["paths", "/root", "paths", "/pets", "get", "parameters", "1", "in"],
      ["paths", "/scalar", "length"],
      ["paths", "/clipped", "get"],
      ["paths", "/pets", "get", "responses", "404", "description"],
      ["components", "schemas", "Pet", "properties", "$ref", "type"],
    ];
    const found = textLines(text, format, keyPaths);
    expect(found).toEqual(documentPlaces(text, format, document, keyPaths));
    // A circular reference, one to the whole document, to a string, one whose fragment ends in a line
    // break, one to nothing, and a property named `$ref`.
    expect(found?.slice(-6).map((place) => place.reached)).toEqual([false, true, false, false, false, true]);
  });

  it.each([
    ["yaml", "paths:\n  /a:\n    get:\n      $ref: '#/x/%zz'\n      responses: {}\nx:\n  get: 1\n"],
    ["json", '{"paths": {"/a": {"get": {"$ref": "#/x/%E0%A4%A", "responses": {}}}}, "x": {"get": 1}}'],
  ] as const)("takes a reference with an invalid %%-escape as leading nowhere, in %s", (format, text) => {
    const document = parseSource(text, format === "json");
    const keyPaths = [
      ["paths", "/a", "get", "responses"],
      ["paths", "/a", "get", "get"],
    ];
    const found = textLines(text, format, keyPaths);
    expect(found).toEqual(documentPlaces(text, format, document, keyPaths));
    expect(found?.map((place) => place.reached)).toEqual([true, false]);
    const sources = { root: { file: "spec", text, format, document }, referenced: [] };
    expect(placesOf(sources, ["#/paths/~1a/get/get"])).toEqual([
      { file: "spec", line: found?.[1]?.line, exact: false },
    ]);
  });

  it("takes no key an object inherits as written, in the text and the built document alike", () => {
    const text = "paths:\n  /a:\n    get:\n      $ref: '#/x/constructor'\n      responses: {}\nx: {}\n";
    const document = parseSource(text, false);
    const keyPaths = [
      ["paths", "/a", "get", "constructor"],
      ["paths", "/a", "toString"],
      ["paths", "/a", "get", "responses", "__proto__"],
    ];
    const found = textLines(text, "yaml", keyPaths);
    expect(found).toEqual(documentPlaces(text, "yaml", document, keyPaths));
    expect(found?.map((place) => place.reached)).toEqual([false, false, false]);
  });

  it.each([
    [
      "yaml",
      `paths:\n  /a:\n    get:\n      $ref: '#${"/a".repeat(10_000)}'\n      responses: {}\na:\n  a: 1\n`,
    ],
    [
      "json",
      `{"paths": {"/a": {"get": {"$ref": "#${"/a".repeat(10_000)}", "responses": {}}}}, "a": {"a": 1}}`,
    ],
  ] as const)("follows a reference naming a node 10,000 keys deep, in %s", (format, text) => {
    const document = parseSource(text, format === "json");
    const keyPaths = [["paths", "/a", "get", "responses"]];
    const found = textLines(text, format, keyPaths);
    expect(found).toEqual(documentPlaces(text, format, document, keyPaths));
    expect(found?.[0]?.reached).toBe(true);
  });

  it("places Stripe's key paths as the built document does, reading its text a few times", () => {
    const text = brotliDecompressSync(
      readFileSync(fileURLToPath(new URL("../fixtures/real-specs/stripe-spec3.yaml.br", import.meta.url))),
    ).toString("utf8");
    const document = parseSource(text, false);
    const keyPaths = [...keyPathsOf(document, 400, 2026, ["paths"]), ...keyPathsOf(document, 100, 28)];
    const found = textLines(text, "yaml", keyPaths);
    expect(found).toEqual(documentPlaces(text, "yaml", document, keyPaths));
    expect(found?.filter((place) => place.line > 1 && place.reached).length).toBeGreaterThan(300);
  });

  it.each([
    ["a flow mapping on the path", "paths:\n  /a: {get: {description: x}}\n", ["paths", "/a", "get"]],
    ["an alias on the path", "x: &a\n  get: {}\npaths:\n  /a: *a\n", ["paths", "/a", "get"]],
    [
      "a reference on the lines below its key",
      "paths:\n  /a:\n    $ref:\n      '#/x'\nx:\n  get: 1\n",
      ["paths", "/a", "get"],
    ],
    [
      "a plain reference going on below",
      "paths:\n  /a:\n    $ref: '#/x'\n    get: 1\n  /b:\n    $ref: x\n      y\n",
      ["paths", "/b", "get"],
    ],
  ])("gives up on %s, and the placement builds the document", (_label, text, keyPath) => {
    expect(textPlaces(text, "yaml", [keyPath])).toBeUndefined();
    const document = parseSource(text, false);
    const sources = { root: { file: "spec.yaml", text, format: "yaml" as const, document }, referenced: [] };
    const [expected] = documentPlaces(text, "yaml", document, [keyPath]);
    expect(placesOf(sources, [`#/${keyPath.map((key) => key.replaceAll("/", "~1")).join("/")}`])).toEqual([
      { file: "spec.yaml", line: expected?.line, exact: expected?.reached },
    ]);
  });
});
