import { describe, expect, it } from "vitest";
import { ownPlaces, treeWithInternalRefs } from "../../src/bundling/shared-nodes.ts";

describe("treeWithInternalRefs", () => {
  it("writes a shared node once, where a breadth-first walk meets it first, and refers to it elsewhere", () => {
    const pet: Record<string, unknown> = { type: "object" };
    pet.properties = { parent: pet };
    const graph = { paths: { "/pets": { schema: { items: pet } } }, "x/y": { pet } };

    expect(treeWithInternalRefs(graph, new Map())).toEqual({
      paths: { "/pets": { schema: { items: { $ref: "#/x~1y/pet" } } } },
      "x/y": { pet: { type: "object", properties: { parent: { $ref: "#/x~1y/pet" } } } },
    });
  });

  it("keeps the root's own nodes at their places", () => {
    const root = {
      paths: { "/pets": { schema: { $ref: "#/components/schemas/Pet" } } },
      components: { schemas: { Pet: { type: "object" } } },
    };
    const places = ownPlaces(root);
    root.paths["/pets"].schema = root.components.schemas.Pet as never;

    expect(treeWithInternalRefs(root, places)).toEqual({
      paths: { "/pets": { schema: { $ref: "#/components/schemas/Pet" } } },
      components: { schemas: { Pet: { type: "object" } } },
    });
  });
});
