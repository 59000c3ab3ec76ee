/**
 * Shaping a real multi-MB spec, through `gitbook-openapi bundle --audience`: DigitalOcean's public API
 * description (2,850 files, about 3 MB bundled; Apache-2.0, test/fixtures/digitalocean-openapi.tar.gz)
 * with an overlay that marks every Droplet operation `x-internal: true` and titles every tag, and
 * `remove-internal` for the public audience. Each audience's document must be whole (no dangling
 * reference, nothing the official schema refuses that the spec did not already have).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleSpec } from "../../src/core/bundling/index.ts";
import { parseSource } from "../../src/core/documents/source-text.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import { shapeDocument } from "../../src/core/shaping/audiences.ts";
import { parseOverlay } from "../../src/core/shaping/overlay.ts";
import { danglingRefs } from "../../src/core/shaping/remove-internal.ts";
import { structuralIssues } from "../../src/core/validation/structure.ts";
import { runCli } from "../cli/run-cli.ts";

const SPEC = "specification/DigitalOcean-public.v2.yaml";

const OVERLAY = `overlay: 1.0.0
info:
  title: Droplets are internal; every tag gets a page title
  version: 1.0.0
actions:
  - target: $.paths.*[?@.tags[?@ == 'Droplets']]
    update:
      x-internal: true
  - target: $.tags[*]
    update:
      x-page-icon: cloud
`;

// DigitalOcean's own files have structural slips (a \`properties\` holding a \`$ref\`): warnings by default.
const CONFIG = `specs:
  ${SPEC}:
    overlays: [overlays/gitbook.yaml]
    audiences:
      public: { slug: digitalocean, remove-internal: true }
      internal: { slug: digitalocean-internal }
`;

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { tags?: string[]; operationId?: string }>>;
  tags?: Array<{ name: string; "x-page-icon"?: string }>;
  components?: { schemas?: Record<string, unknown> };
};

const operations = (document: Document) =>
  Object.values(document.paths).flatMap((item) =>
    Object.entries(item).filter(([method]) =>
      ["get", "put", "post", "delete", "patch", "head"].includes(method),
    ),
  );

describe("a real multi-MB spec shaped as two audiences (DigitalOcean)", () => {
  let workspace: string;
  let unshaped: Document;
  beforeAll(async () => {
    workspace = await mkdtemp(path.join(tmpdir(), "shaping-real-"));
    const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));
    execFileSync("tar", ["-xzf", `${fixtures}digitalocean-openapi.tar.gz`, "-C", workspace]);
    await writeFile(path.join(workspace, "gitbook-openapi.yaml"), CONFIG);
    await execFileSync("mkdir", ["-p", path.join(workspace, "overlays")]);
    await writeFile(path.join(workspace, "overlays/gitbook.yaml"), OVERLAY);
    unshaped = load((await bundleSpec(path.join(workspace, SPEC), { workspace })).text) as Document;
  }, 120_000);
  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  async function audience(name: string): Promise<Document> {
    const out = `${name}.yaml`;
    const run = await runCli(["bundle", SPEC, "--audience", name, "-o", out], { cwd: workspace });
    // Only the spec's own warnings (its files' `properties` holding a `$ref`): none from the overlay.
    expect(run.stderr).not.toContain("overlays/");
    expect(run.code, run.stderr).toBe(0);
    return load(await readFile(path.join(workspace, out), "utf8")) as Document;
  }

  it("public: the Droplet operations and what only they used are gone; the document is whole", async () => {
    const droplets = operations(unshaped).filter(([, operation]) => operation.tags?.includes("Droplets"));
    expect(droplets.length).toBeGreaterThan(10);
    const document = await audience("public");
    expect(operations(document).length).toBe(operations(unshaped).length - droplets.length);
    expect(operations(document).some(([, operation]) => operation.tags?.includes("Droplets"))).toBe(false);
    expect(document.tags?.some((tag) => tag.name === "Droplets")).toBe(false);
    expect(document.tags?.every((tag) => tag["x-page-icon"] === "cloud")).toBe(true);
    expect(Object.keys(document.components?.schemas ?? {}).length).toBeLessThan(
      Object.keys(unshaped.components?.schemas ?? {}).length,
    );
    expect(danglingRefs(document)).toEqual([]);
    const before = new Set((structuralIssues(unshaped, unshaped.openapi) ?? []).map((i) => i.message));
    expect(
      (structuralIssues(document, document.openapi) ?? []).filter((i) => !before.has(i.message)),
    ).toEqual([]);
  }, 120_000);

  it("internal: every operation, marked by the overlay but kept", async () => {
    const document = await audience("internal");
    expect(operations(document).length).toBe(operations(unshaped).length);
    const marked = operations(document).filter(
      ([, operation]) => (operation as Record<string, unknown>)["x-internal"],
    );
    expect(marked.length).toBe(
      operations(unshaped).filter(([, operation]) => operation.tags?.includes("Droplets")).length,
    );
    expect(danglingRefs(document)).toEqual([]);
  }, 120_000);

  it("asks for an audience when the file has several, and names them", async () => {
    const run = await runCli(["bundle", SPEC], { cwd: workspace });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("published as 2 audiences (public, internal); name one with --audience");
    const unknown = await runCli(["bundle", SPEC, "--audience", "partners"], { cwd: workspace });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no audience 'partners'; its audiences are: public, internal");
  });
});

/**
 * Stripe's 4 MB OpenAPI 3.0 spec and Kubernetes' 3.8 MB Swagger 2.0 spec (test/fixtures/real-specs, with
 * their licences): an overlay marks a family of operations internal (found by a JSONPath filter with
 * `search`), remove-internal takes them out, and the document stays whole.
 */
describe("real multi-MB specs shaped in memory", () => {
  const real = (name: string) =>
    brotliDecompressSync(
      readFileSync(fileURLToPath(new URL(`../fixtures/real-specs/${name}.br`, import.meta.url))),
    ).toString("utf8");
  const cases: Array<[string, string, string]> = [
    ["stripe-spec3.yaml", "$.paths.*[?@.operationId && search(@.operationId, 'TestHelpers')]", "openapi"],
    ["kubernetes-swagger.json", "$.paths.*[?@.tags[?search(@, '^storage')]]", "swagger"],
  ];
  for (const [name, target, versionKey] of cases) {
    it(`${name}: ${target}, then remove-internal`, () => {
      const source = parseSource(real(name), name.endsWith(".json")) as Document & Record<string, unknown>;
      const total = operations(source).length;
      const overlay = parseOverlay(
        `overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n  - target: "${target}"\n    update: {x-internal: true}\n  - target: $.info\n    update: {x-page-title: Shaped}\n`,
        "o.yaml",
      );
      const logger = new MemoryLogger();
      const { document } = shapeDocument(
        source,
        { overlays: ["o.yaml"], removeInternal: true },
        { readOverlay: () => overlay, logger, specFile: name },
      );
      const shaped = document as Document & Record<string, unknown>;
      const removed = total - operations(shaped).length;
      expect(removed).toBeGreaterThan(10);
      expect(operations(shaped).length).toBeLessThan(total);
      expect(logger.entries.filter((entry) => entry.level === "warning")).toEqual([]);
      expect((shaped.info as Record<string, unknown>)["x-page-title"]).toBe("Shaped");
      expect(danglingRefs(shaped)).toEqual([]);
      const version = String(source[versionKey]);
      const key = (i: { keyPath: string[]; message: string }) => `${i.keyPath.join("/")} ${i.message}`;
      const before = new Set((structuralIssues(source, version) ?? []).map(key));
      expect((structuralIssues(shaped, version) ?? []).map(key).filter((k) => !before.has(k))).toEqual([]);
    }, 120_000);
  }
});
