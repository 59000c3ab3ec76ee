import fc from "fast-check";

/** `$ref` values: inside the document, to other files, and anything at all. */
const ref = fc.oneof(fc.constant("#/a"), fc.constant("b.yaml"), fc.constant("./c.json#/d"), fc.string());

/**
 * Schema-shaped trees holding references and discriminator mappings at any depth: for properties that a
 * cheap precheck never clears a document that has a reference to another file.
 */
export const referenceTree: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    fc.record({ $ref: ref }),
    fc.record({
      discriminator: fc.record({
        propertyName: fc.constant("kind"),
        mapping: fc.dictionary(fc.constantFrom("a", "b"), ref, { minKeys: 1, maxKeys: 2 }),
      }),
    }),
    fc.dictionary(fc.constantFrom("schema", "items", "properties", "a", "b"), tie("node"), {
      maxKeys: 3,
    }),
  ),
})).node;
