/**
 * Property: a schema rewritten into an equivalent form says no change at all, so none that breaks
 * (issue 27). The rewrites are those real specs make between releases without meaning anything: `type`
 * (or `properties` and `required`) moved from beside a oneOf/anyOf into its variants, a `$ref` inlined
 * (or a schema moved into a component), a schema wrapped in a one-element `allOf`. Each side is read as
 * the set of instances it accepts, in a request and in a response, whichever side has the rewrite.
 *
 * A fixed seed and a thousand runs keep it to about a second; `npm run test:properties` runs it 100
 * times longer (PROPERTY_RUNS, PROPERTY_SEED).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareApis } from "../../src/core/changes/index.ts";

type Schema = Record<string, unknown>;

const RUNS = Number(process.env.PROPERTY_RUNS ?? 1000);
const SEED = Number(process.env.PROPERTY_SEED ?? 27);

const NAMES = ["id", "name", "kind", "size"] as const;

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant({ type: "string" }),
  fc.constant({ type: "integer" }),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: "string", maxLength: 10 }),
  fc.subarray(["RSA", "EC", "oct"], { minLength: 1 }).map((values) => ({ type: "string", enum: values })),
);

const { node } = fc.letrec<{ node: Schema; object: Schema; array: Schema; union: Schema }>((tie) => ({
  node: fc.oneof({ maxDepth: 3, depthIdentifier: "schema" }, leaf, tie("object"), tie("array"), tie("union")),
  object: fc.dictionary(fc.constantFrom(...NAMES), tie("node"), { maxKeys: 3 }).chain((properties) =>
    fc.subarray(Object.keys(properties)).map((required) => ({
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
    })),
  ),
  array: tie("node").map((items) => ({ type: "array", items })),
  // An object with keywords beside its variants, as real specs write them (variants without `type`).
  union: fc
    .record({
      own: fc.oneof(tie("object"), fc.constant<Schema>({ type: "object" })),
      variants: fc.array(tie("object"), { minLength: 1, maxLength: 3 }),
      keyword: fc.constantFrom("oneOf", "anyOf"),
    })
    .map(({ own, variants, keyword }) => {
      // A variant names other properties than the keywords beside it (a property both name, each
      // with its own schema, is an allOf of the two: another property than this one checks).
      const taken = new Set(Object.keys((own.properties ?? {}) as Schema));
      const apart = ({ type: _type, properties, required, ...variant }: Schema) => {
        const kept = Object.entries((properties ?? {}) as Schema).filter(([name]) => !taken.has(name));
        const names = (required as string[] | undefined)?.filter((name) => !taken.has(name)) ?? [];
        return {
          ...variant,
          properties: Object.fromEntries(kept),
          ...(names.length > 0 ? { required: names } : {}),
        };
      };
      return { ...own, [keyword]: variants.map(apart) };
    }),
}));

type Rewrite = "type-into-variants" | "properties-into-variants" | "outline" | "all-of";

/** The schema with each rewrite applied where `pick` says, its new components added to `components`. */
function rewrite(
  schema: Schema,
  pick: () => Rewrite | undefined,
  components: Record<string, Schema>,
): Schema {
  const inner = (value: unknown): unknown =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? rewrite(value as Schema, pick, components)
      : value;
  let out: Schema = { ...schema };
  if (out.properties)
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Schema).map(([name, value]) => [name, inner(value)]),
    );
  if (out.items) out.items = inner(out.items);
  for (const keyword of ["oneOf", "anyOf"] as const)
    if (Array.isArray(out[keyword])) out[keyword] = (out[keyword] as unknown[]).map(inner);
  const chosen = pick();
  const variants = out.oneOf ?? out.anyOf;
  if (chosen === "type-into-variants" && typeof out.type === "string" && Array.isArray(variants)) {
    const keyword = out.oneOf ? "oneOf" : "anyOf";
    const { type, ...rest } = out;
    const typed = (variants as Schema[]).map((variant) => ({ ...variant, type }));
    if ((variants as Schema[]).every((variant) => variant.type === undefined || variant.type === type))
      out = { ...rest, [keyword]: typed };
  } else if (chosen === "properties-into-variants" && out.properties && Array.isArray(variants)) {
    // Where no variant names one of them: the variant then says what the two said together.
    const keyword = out.oneOf ? "oneOf" : "anyOf";
    const { properties, required, ...rest } = out;
    const names = Object.keys(properties as Schema);
    const apart = (variants as Schema[]).every(
      (variant) => !names.some((name) => Object.hasOwn((variant.properties ?? {}) as Schema, name)),
    );
    if (apart)
      out = {
        ...rest,
        [keyword]: (variants as Schema[]).map((variant) => ({
          ...variant,
          properties: { ...(properties as Schema), ...((variant.properties ?? {}) as Schema) },
          ...(required || variant.required
            ? { required: [...((required ?? []) as string[]), ...((variant.required ?? []) as string[])] }
            : {}),
        })),
      };
  } else if (chosen === "outline") {
    const name = `Part${Object.keys(components).length}`;
    components[name] = out;
    out = { $ref: `#/components/schemas/${name}` };
  } else if (chosen === "all-of") {
    out = { allOf: [out] };
  }
  return out;
}

/** A document that sends and receives `schema`, through a component as real specs do. */
function documentOf(schema: Schema, components: Record<string, Schema>) {
  const content = { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } };
  return {
    openapi: "3.0.3",
    info: { title: "Things", version: "1" },
    paths: {
      "/things": {
        post: {
          requestBody: { required: true, content },
          responses: { "200": { description: "The thing", content } },
        },
      },
    },
    components: { schemas: { Thing: schema, ...components } },
  };
}

describe("compareApis: equivalent schemas", () => {
  it("says no change, breaking or other, when a schema is rewritten into an equivalent form", () => {
    const rewrites = fc.array(
      fc.constantFrom<Rewrite | undefined>(
        "type-into-variants",
        "properties-into-variants",
        "outline",
        "all-of",
        undefined,
      ),
      {
        minLength: 1,
        maxLength: 40,
      },
    );
    fc.assert(
      fc.property(node, rewrites, fc.boolean(), (schema, choices, rewrittenIsHead) => {
        let next = 0;
        const pick = () => choices[next++ % choices.length];
        const components: Record<string, Schema> = {};
        const rewritten = documentOf(rewrite(schema, pick, components), components);
        const plain = documentOf(schema, {});
        const [before, after] = rewrittenIsHead ? [plain, rewritten] : [rewritten, plain];
        const result = compareApis(before, after);
        expect(result.breaking.map((change) => change.message)).toEqual([]);
        expect(result.other.map((change) => change.message)).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
