/**
 * Real split specs (test/fixtures/REAL-SPECS.md): bundled as the action bundles them, then checked the way
 * their authors check them, with `redocly lint`, and against the source with the round-trip oracle.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BundledSpec, bundleSpec, findExternalRefs } from "../../src/core/bundling/index.ts";
import { newProblems, redoclyLint } from "./redocly.ts";
import { diskLoader, firstDifference, mayHoldNewComponents, memoryLoader } from "./same-graph.ts";
import { type TempTree, tempTree } from "./temp-tree.ts";

const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: the tests read into parsed documents.
type Document = any;

interface Bundled {
  tree: TempTree;
  root: string;
  result: BundledSpec;
  document: Document;
  bundlePath: string;
}

async function bundleFixture(tree: TempTree, root: string): Promise<Bundled> {
  const result = await bundleSpec(tree.path(root), { workspace: tree.root });
  const bundlePath = tree.path("bundle.yaml");
  writeFileSync(bundlePath, result.text);
  return { tree, root: tree.path(root), result, document: load(result.text), bundlePath };
}

/** Every discriminator mapping value in `document`. */
function mappingValues(document: unknown): string[] {
  const values: string[] = [];
  const pending = [document];
  for (const node of pending) {
    if (typeof node !== "object" || node === null) continue;
    const { discriminator } = node as { discriminator?: { mapping?: Record<string, string> } };
    if (discriminator?.mapping) values.push(...Object.values(discriminator.mapping));
    pending.push(...Object.values(node));
  }
  return values;
}

function differenceFromSource({ root, document }: Bundled): string | null {
  const rootUrl = pathToFileURL(root).href;
  const disk = diskLoader();
  return firstDifference(
    { url: rootUrl, value: disk(rootUrl) },
    disk,
    { url: "file:///bundle", value: document },
    memoryLoader("file:///bundle", document),
    mayHoldNewComponents,
  );
}

describe("DigitalOcean's public API description, split over 2,850 files", () => {
  let spec: Bundled;
  beforeAll(async () => {
    const tree = tempTree();
    execFileSync("tar", ["-xzf", `${fixtures}digitalocean-openapi.tar.gz`, "-C", tree.root]);
    spec = await bundleFixture(tree, "specification/DigitalOcean-public.v2.yaml");
  }, 120_000);
  afterAll(() => spec?.tree.remove());

  it("bundles every file into one document without references to other files", () => {
    expect(spec.result.bundled).toBe(true);
    expect(spec.result.files).toHaveLength(2850);
    expect(findExternalRefs(spec.document)).toEqual([]);
  });

  it("passes `redocly lint` with no problem the source does not have", async () => {
    const [source, bundle] = await Promise.all([
      redoclyLint(spec.root, spec.tree.root),
      redoclyLint(spec.bundlePath, spec.tree.root),
    ]);

    expect(source.length).toBeGreaterThan(0);
    expect(newProblems(source, bundle)).toEqual([]);
  }, 180_000);

  it("names the files' schemas, responses and parameters in components, and maps discriminators there", () => {
    const counts = Object.fromEntries(
      Object.entries(spec.document.components).map(([group, entries]) => [
        group,
        Object.keys(entries as object).length,
      ]),
    );
    expect(counts).toEqual({
      securitySchemes: 2,
      schemas: 895,
      responses: 301,
      parameters: 148,
      examples: 96,
      headers: 6,
      links: 4,
    });
    const mappings = mappingValues(spec.document);
    expect(mappings.length).toBeGreaterThan(50);
    for (const value of mappings) expect(value).toMatch(/^#\/components\/schemas\/[\w.-]+$/);
  });

  it("dereferences to the same API as the source", () => {
    expect(differenceFromSource(spec)).toBeNull();
  }, 60_000);
});

describe("Redocly's openapi-starter: Markdown, code samples, discriminators, webhooks", () => {
  let spec: Bundled;
  beforeAll(async () => {
    const tree = tempTree(`${fixtures}openapi-starter`);
    spec = await bundleFixture(tree, "openapi/openapi.yaml");
  }, 60_000);
  afterAll(() => spec?.tree.remove());

  it("passes `redocly lint` with no problem the source does not have", async () => {
    const [source, bundle] = await Promise.all([
      redoclyLint(spec.root, spec.tree.root),
      redoclyLint(spec.bundlePath, spec.tree.root),
    ]);

    expect(newProblems(source, bundle)).toEqual([]);
  }, 60_000);

  it("inlines the code samples, names every component after its file and maps the discriminator there", () => {
    const samples = spec.document.paths["/menu"].get["x-codeSamples"];
    expect(samples.map((sample: { lang: string }) => sample.lang)).toEqual(["C#", "PHP"]);
    for (const sample of samples) expect(sample.source).toMatch(/\S\n/);
    expect(spec.result.files).toContain("openapi/code_samples/C_sharp/menu/get.cs");

    expect(Object.keys(spec.document.components.schemas)).toContain("MenuItem");
    expect(spec.document.components.schemas.MenuItem.discriminator.mapping).toEqual({
      beverage: "#/components/schemas/Beverage",
      dessert: "#/components/schemas/Dessert",
    });
    expect(Object.keys(spec.document.components.parameters).sort()).toEqual([
      "After",
      "Before",
      "Filter",
      "Limit",
      "MenuItemId",
      "OrderId",
      "PhotoSize",
      "Search",
      "Sort",
    ]);
    expect(findExternalRefs(spec.document)).toEqual([]);
  });
});
