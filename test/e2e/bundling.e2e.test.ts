/**
 * Bundling as a user meets it: the action run as the GitHub runner runs it,
 * publishing to the emulator on a real loopback socket.
 */
import { load } from "js-yaml";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { emptyWorkspace, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(files: Record<string, string>) {
  const api = await startEmulator({ processing: { pendingMs: 20, progressMs: 20 } });
  cleanups.push(() => api.close());
  const dir = await emptyWorkspace(files);
  cleanups.push(() => removeWorkspace(dir));
  return { api, dir };
}

const publish = (api: RunningEmulator, dir: string) =>
  runActionInProcess({
    workspace: dir,
    inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl },
    env: { GITHUB_REPOSITORY: "acme/cafe", GITHUB_SHA: "b".repeat(40) },
  });

const lines = (...text: string[]) => `${text.join("\n")}\n`;

describe("the action bundling split specs, end to end", () => {
  it("publishes named components, Markdown and code samples inlined, mappings to components, literal data as written", async () => {
    const { api, dir } = await setUp({
      "openapi/openapi.yaml": lines(
        "openapi: 3.1.0",
        "info:",
        "  title: Café",
        "  version: 1.0.0",
        "  description: { $ref: docs/intro.md }",
        "paths:",
        "  /menu: { $ref: paths/menu.yaml }",
      ),
      "openapi/docs/intro.md": "# The café\n\nOrder **coffee**.\n",
      "openapi/paths/menu.yaml": lines(
        "get:",
        "  operationId: listMenu",
        "  parameters: [{ $ref: ../components/parameters/Limit.yaml }]",
        "  responses:",
        "    '200':",
        "      description: The menu",
        "      content:",
        "        application/json:",
        "          schema: { $ref: ../components/schemas/MenuItem.yaml }",
        "          examples:",
        "            raw:",
        "              value: { $ref: not-a-reference.yaml }",
        "  x-codeSamples:",
        "    - lang: C#",
        "      source: { $ref: ../code_samples/get.cs }",
      ),
      "openapi/components/parameters/Limit.yaml": lines(
        "name: limit",
        "in: query",
        "schema: { type: integer }",
      ),
      "openapi/components/schemas/MenuItem.yaml": lines(
        "oneOf: [{ $ref: Beverage.yaml }, { $ref: Dessert.yaml }]",
        "discriminator:",
        "  propertyName: category",
        "  mapping: { beverage: ./Beverage.yaml, dessert: ./Dessert.yaml }",
      ),
      "openapi/components/schemas/Beverage.yaml": lines(
        "type: object",
        "properties: { category: { type: string } }",
      ),
      "openapi/components/schemas/Dessert.yaml": lines(
        "type: object",
        "properties: { category: { type: string } }",
      ),
      "openapi/code_samples/get.cs": 'var menu = await client.GetStringAsync("/menu");\n',
    });
    const run = await publish(api, dir);

    expect(run.exitCode).toBe(0);
    const [result] = JSON.parse(run.outputs.results ?? "[]") as { slug: string; versionId: string }[];
    const text = api.getVersionText("demo-org", String(result?.slug), String(result?.versionId)) ?? "";
    // biome-ignore lint/suspicious/noExplicitAny: reading into the published document.
    const published = load(text) as any;
    expect(published.info.description).toBe("# The café\n\nOrder **coffee**.\n");
    const get = published.paths["/menu"].get;
    expect(get.parameters).toEqual([{ $ref: "#/components/parameters/Limit" }]);
    expect(get.responses["200"].content["application/json"]).toEqual({
      schema: { $ref: "#/components/schemas/MenuItem" },
      examples: { raw: { value: { $ref: "not-a-reference.yaml" } } },
    });
    expect(get["x-codeSamples"]).toEqual([
      { lang: "C#", source: 'var menu = await client.GetStringAsync("/menu");\n' },
    ]);
    expect(Object.keys(published.components.schemas)).toEqual(["Beverage", "Dessert", "MenuItem"]);
    expect(published.components.schemas.MenuItem.discriminator.mapping).toEqual({
      beverage: "#/components/schemas/Beverage",
      dessert: "#/components/schemas/Dessert",
    });
  });

  it("reports every reference that cannot be bundled in one run, each as an annotation on its file and line", async () => {
    const { api, dir } = await setUp({
      "openapi.yaml": lines(
        "openapi: 3.0.3",
        "info: { title: Broken refs, version: '1' }",
        "paths:",
        "  /a: { $ref: ./paths/a.yaml }",
        "  /b: { $ref: ./paths/missing.yaml }",
      ),
      "paths/a.yaml": lines(
        "get:",
        "  responses:",
        "    '200': { $ref: 'https://example.com/responses.yaml#/Ok' }",
        "    '404': { $ref: ../responses.yaml#/NotFound }",
      ),
      "responses.yaml": lines("Ok: { description: ok }"),
    });
    const run = await publish(api, dir);

    expect(run.exitCode).toBe(1);
    const [result] = JSON.parse(run.outputs.results ?? "[]") as {
      status: string;
      errorCode: string;
      errors: string[];
    }[];
    expect(result?.status).toBe("failed");
    expect(result?.errorCode).toBe("BUNDLE_ERROR");
    const annotations = run.annotations
      .filter((annotation) => annotation.level === "error" && annotation.file !== undefined)
      .map(({ file, line }) => `${file}:${line}`);
    expect(annotations).toEqual(
      expect.arrayContaining(["openapi.yaml:5", "paths/a.yaml:3", "paths/a.yaml:4"]),
    );
    expect(api.requests.filter((request) => request.method === "PUT")).toEqual([]);
  });
});
