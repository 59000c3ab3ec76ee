import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryLogger } from "../../src/core/logger.ts";
import { ShapingError, shapeDocument, workspaceOverlays } from "../../src/core/shaping/audiences.ts";
import { OverlayError } from "../../src/core/shaping/overlay.ts";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function folder(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "shape-document-"));
  folders.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

const overlay = (actions: string) => `overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n${actions}`;

const document = () => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths: { "/a": { get: { responses: { "200": { $ref: "#/components/responses/Ok" } } } } },
  components: { responses: { Ok: { description: "ok" } } },
});

describe("shapeDocument", () => {
  it("applies the overlays in order, then remove-internal, on a copy", async () => {
    const root = await folder({
      "o/first.yaml": overlay("  - target: $.paths['/a'].get\n    update: {x-internal: true}\n"),
      "o/second.yaml": overlay("  - target: $.info\n    update: {x-page-title: Shaped}\n"),
    });
    const source = document();
    const shaped = shapeDocument(
      source,
      { overlays: ["o/first.yaml", "o/second.yaml"], removeInternal: true },
      { readOverlay: workspaceOverlays(root), logger: new MemoryLogger(), specFile: "api.yaml" },
    );
    expect(shaped.document).toEqual({
      openapi: "3.1.0",
      info: { title: "t", version: "1", "x-page-title": "Shaped" },
      paths: {},
    });
    expect(shaped.summary).toBe(
      "2 overlays; remove-internal: 1 marked part, 1 operation, 1 component, 0 tags removed",
    );
    expect(source).toEqual(document());
  });

  it("warns at each x-internal value that is not a boolean, 20 by place and the rest counted", () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 25; i++)
      paths[`/p${i}`] = {
        get: { "x-internal": i === 0 ? 0 : "yes", responses: { "200": { description: "ok" } } },
      };
    const logger = new MemoryLogger();
    const shaped = shapeDocument(
      { openapi: "3.1.0", info: { title: "t", version: "1" }, paths },
      { overlays: [], removeInternal: true },
      { readOverlay: () => undefined, logger, specFile: "api.yaml" },
    );
    expect(Object.keys((shaped.document as { paths: object }).paths)).toEqual(["/p0"]);
    const warnings = logger.entries
      .filter((entry) => entry.level === "warning")
      .map((entry) => entry.message);
    expect(warnings).toHaveLength(21);
    expect(warnings[0]).toBe(
      "`x-internal: 0` at `/paths/~1p0/get` (shaping api.yaml) is not taken as marked: kept; write `x-internal: false` to say so.",
    );
    expect(warnings[1]).toMatch(
      /^`x-internal: "yes"` at `\/paths\/~1p1\/get` \(shaping api\.yaml\) is taken as marked: removed/,
    );
    expect(warnings[20]).toMatch(/^and 5 more `x-internal` values that are not booleans/);
  });

  it("fails at its place when remove-internal meets a marked info", () => {
    expect(() =>
      shapeDocument(
        { openapi: "3.1.0", info: { title: "t", version: "1", "x-internal": true }, paths: {} },
        { overlays: [], removeInternal: true },
        { readOverlay: () => undefined, logger: new MemoryLogger(), specFile: "api.yaml" },
      ),
    ).toThrow(
      new ShapingError(
        "remove-internal: `/info` is marked `x-internal`, and a document cannot go without it: remove the marking, or publish this audience without remove-internal.",
      ),
    );
  });

  it("fails when an overlay leaves a reference to what it removed", async () => {
    const root = await folder({
      "o.yaml": overlay("  - target: $.components.responses.Ok\n    remove: true\n"),
    });
    expect(() =>
      shapeDocument(
        document(),
        { overlays: ["o.yaml"], removeInternal: false },
        { readOverlay: workspaceOverlays(root), logger: new MemoryLogger(), specFile: "api.yaml" },
      ),
    ).toThrow(ShapingError);
  });

  it("reads overlays only inside the workspace: a link out of it, a missing file", async () => {
    const outside = await folder({ "o.yaml": overlay("  - target: $.info\n    update: {x: 1}\n") });
    const root = await folder({});
    await symlink(path.join(outside, "o.yaml"), path.join(root, "link.yaml"));
    const read = workspaceOverlays(root);
    expect(() => read("link.yaml")).toThrow(OverlayError);
    expect(() => read("link.yaml")).toThrow(/^link\.yaml: is a link to .*, outside the workspace\./);
    expect(() => read("../o.yaml")).toThrow(/outside the workspace/);
    expect(() => read("missing.yaml")).toThrow(/^missing\.yaml: the overlay file does not exist/);
    // A review's base commit may not have an overlay the change adds: it is skipped there.
    expect(workspaceOverlays(root, "skip")("missing.yaml")).toBeUndefined();
  });
});
