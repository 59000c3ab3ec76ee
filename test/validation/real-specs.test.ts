/**
 * Real public specs through the structural check, as the run checks them (prepareFile: read, validate,
 * bundle): Stripe (3.0), Kubernetes and Docker Engine (Swagger 2.0), OpenAI (3.1), Redocly's starter
 * (3.1, split) are valid. DigitalOcean's description (3.0, split) is not, per the official schema: three
 * of its schemas write `properties: {$ref: …}` (test/fixtures/REAL-SPECS.md); the check says where, as
 * warnings by default (GitBook takes it) and as problems with `strict: true`.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { inspectFile } from "../../src/core/discovery/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { prepareFile } from "../../src/core/prepare/prepare.ts";
import type { PreparedSpec } from "../../src/core/prepare/prepared.ts";

const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));
const workspace = mkdtempSync(path.join(tmpdir(), "real-specs-validation-"));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

async function prepare(
  file: string,
  strict = false,
): Promise<{ prepared: PreparedSpec; logger: MemoryLogger }> {
  const inspection = await inspectFile(workspace, file);
  if (inspection.kind !== "spec") throw new Error(`${file}: ${inspection.kind}`);
  const logger = new MemoryLogger();
  const prepared = await prepareFile(
    inspection.spec,
    "slug",
    {
      workspace,
      sourceUrlFor: undefined,
      strict,
    },
    logger,
  );
  return { prepared, logger };
}

describe("real single-file specs are valid", () => {
  const cases: [string, string][] = [
    ["stripe-spec3.yaml", "OpenAPI 3.0, 4 MB YAML"],
    ["kubernetes-swagger.json", "Swagger 2.0, 3.8 MB JSON"],
    ["openai-openapi.yaml", "OpenAPI 3.1, 3 MB YAML"],
    ["moby-swagger.yaml", "Swagger 2.0, 0.5 MB YAML"],
  ];
  it.each(cases)("%s (%s)", async (name) => {
    const bytes = brotliDecompressSync(readFileSync(path.join(fixtures, "real-specs", `${name}.br`)));
    writeFileSync(path.join(workspace, name), bytes);
    const { prepared } = await prepare(name);
    expect(prepared.problems).toEqual([]);
    expect(prepared.source).toBeDefined();
  });
});

describe("a mistake in a real spec is found at its line, and alone", () => {
  const read = (name: string) =>
    brotliDecompressSync(readFileSync(path.join(fixtures, "real-specs", `${name}.br`))).toString("utf8");

  it("Stripe's YAML (4 MB) with a path whose responses are a number", async () => {
    const lines = read("stripe-spec3.yaml").split("\n");
    const at = lines.indexOf("paths:");
    lines.splice(at + 1, 0, "  /broken:", "    get:", "      responses: 5");
    writeFileSync(path.join(workspace, "stripe-broken.yaml"), lines.join("\n"));
    const { prepared } = await prepare("stripe-broken.yaml", true);
    expect(
      prepared.problems.map(({ location, message }) => [location.line, location.column, message]),
    ).toEqual([
      [
        at + 4,
        7,
        "`responses` must be a mapping of status codes (`200`, `4XX`, `default`) to responses; it is the number 5.",
      ],
    ]);
  });

  it("Kubernetes' JSON (3.8 MB) with a parameter of an unknown location", async () => {
    const text = read("kubernetes-swagger.json");
    const paths = /^ {2}"paths": \{$/m.exec(text);
    expect(paths).not.toBeNull();
    const insert =
      '\n    "/broken": {"get": {"parameters": [{"name": "q", "in": "body2", "type": "string"}], "responses": {"200": {"description": "ok"}}}},';
    const index = (paths?.index ?? 0) + (paths?.[0].length ?? 0);
    const broken = text.slice(0, index) + insert + text.slice(index);
    writeFileSync(path.join(workspace, "kubernetes-broken.json"), broken);
    const { prepared } = await prepare("kubernetes-broken.json", true);
    const line = broken.slice(0, index).split("\n").length + 1;
    expect(prepared.problems).toHaveLength(1);
    expect(prepared.problems[0]?.location).toMatchObject({ file: "kubernetes-broken.json", line });
    expect(prepared.problems[0]?.message).toMatch(
      /^`in` must be one of .*"query".*; it is the string "body2"\.$/,
    );
  });
});

describe("real split specs", () => {
  it("Redocly's openapi-starter (3.1) is valid", async () => {
    cpSync(path.join(fixtures, "openapi-starter"), path.join(workspace, "starter"), { recursive: true });
    const { prepared } = await prepare("starter/openapi/openapi.yaml");
    expect(prepared.problems).toEqual([]);
    expect(prepared.bundledFiles?.length).toBeGreaterThan(1);
  });

  it("DigitalOcean's `properties: {$ref}` fail with strict, each in the file that writes it", async () => {
    execFileSync("tar", ["-xzf", path.join(fixtures, "digitalocean-openapi.tar.gz"), "-C", workspace]);
    const root = "specification/DigitalOcean-public.v2.yaml";
    const { prepared } = await prepare(root, true);
    const places = prepared.problems.map(({ code, location }) => [code, location.file, location.line]);
    expect(places).toEqual([
      ["INVALID_SPEC", "specification/resources/load_balancers/loadBalancers_remove_droplets.yml", 27],
      ["INVALID_SPEC", "specification/resources/load_balancers/models/load_balancer.yml", 18],
      ["INVALID_SPEC", "specification/resources/load_balancers/models/load_balancer_create.yml", 6],
      ["INVALID_SPEC", "specification/resources/load_balancers/models/load_balancer_create.yml", 23],
    ]);
    // Each place holds what the message says.
    for (const { location, message } of prepared.problems) {
      expect(message).toMatch(/^`properties` holds a `\$ref`/);
      const line = readFileSync(path.join(workspace, location.file), "utf8").split("\n")[
        (location.line ?? 0) - 1
      ];
      expect(line?.trim()).toMatch(/^\$ref: /);
    }

    // By default they are warnings, and the spec is ready to publish.
    const { prepared: warned, logger } = await prepare(root);
    expect(warned.problems).toEqual([]);
    expect(warned.source).toBeDefined();
    expect(logger.entries.filter((entry) => /`properties` holds a `\$ref`/.test(entry.message))).toHaveLength(
      4,
    );
  });
});
