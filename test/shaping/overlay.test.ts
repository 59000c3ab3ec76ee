/**
 * Overlays against the Overlay Specification's own material: its compliant sets (input, overlay and
 * expected output, copied in fixtures/overlay-compliant-sets with their licence), the examples of the
 * 1.0.0 text (https://github.com/OAI/Overlay-Specification/blob/main/versions/1.0.0.md, Apache-2.0), and
 * the invalid overlays of its schema tests (tests/v1.0/fail), each of which must fail with a message at
 * its file and line — never apply as a silent no-op.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { applyOverlay, OverlayError, parseOverlay } from "../../src/core/shaping/overlay.ts";

const SETS = path.join(import.meta.dirname, "fixtures/overlay-compliant-sets");

function apply(document: unknown, overlayText: string, file = "overlay.yaml") {
  const warnings: string[] = [];
  const result = applyOverlay(document, parseOverlay(overlayText, file), (message, location) =>
    warnings.push(`${location.file}:${location.line}: ${message}`),
  );
  return { result, warnings };
}

describe("the Overlay Specification's compliant sets", () => {
  const sets = readdirSync(SETS, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  it("has the sets", () => expect(sets.length).toBeGreaterThanOrEqual(8));
  for (const set of sets) {
    it(`${set.name}: gives output.yaml`, () => {
      const read = (name: string) => readFileSync(path.join(SETS, set.name, name), "utf8");
      const { result, warnings } = apply(load(read("openapi.yaml")), read("overlay.yaml"));
      expect(result).toEqual(load(read("output.yaml")));
      expect(warnings).toEqual([]);
    });
  }
});

/** The examples of the 1.0.0 text, applied to a small document they fit. */
describe("the examples of Overlay 1.0.0", () => {
  const pets = () => ({
    openapi: "3.1.0",
    info: { title: "Pets", version: "1" },
    paths: {
      "/": { get: { responses: {} } },
      "/pets": {
        get: {
          parameters: [
            { name: "filter", in: "query" },
            { name: "dummy", in: "query" },
          ],
          responses: {},
        },
      },
      "/foo": { get: { responses: {} } },
      "/bar": { get: { responses: {} } },
    },
    components: { schemas: { filterSchema: { type: "string" } } },
  });

  it("structured: one update mirroring the document (its empty `components:` and `tags:` change nothing)", () => {
    const overlay = `overlay: 1.0.0
info:
  title: Structured Overlay
  version: 1.0.0
actions:
  - target: '$' # Root of document
    update:
      info:
        x-overlay-applied: structured-overlay
      paths:
        '/':
          summary: 'The root resource'
          get:
            summary: 'Retrieve the root resource'
            x-rate-limit: 100
        '/pets':
          get:
            summary: 'Retrieve a list of pets'
            x-rate-limit: 100
      components:
      tags:
`;
    const { result } = apply(pets(), overlay);
    const document = result as ReturnType<typeof pets> & Record<string, unknown>;
    expect(document.info).toEqual({ title: "Pets", version: "1", "x-overlay-applied": "structured-overlay" });
    expect(document.paths["/"]).toEqual({
      summary: "The root resource",
      get: { summary: "Retrieve the root resource", "x-rate-limit": 100, responses: {} },
    });
    expect(document.paths["/pets"].get).toMatchObject({
      summary: "Retrieve a list of pets",
      "x-rate-limit": 100,
    });
    expect(document.components).toEqual(pets().components);
    expect("tags" in document).toBe(false);
  });

  it("targeted: each action updates its own node", () => {
    const overlay = `overlay: 1.0.0
info:
  title: Targeted Overlay
  version: 1.0.0
actions:
  - target: $.paths['/foo'].get
    update:
      description: This is the new description
  - target: $.paths['/bar'].get
    update:
      description: This is the updated description
  - target: $.paths['/bar']
    update:
      post:
        description: This is an updated description of a child object
        x-safe: false
`;
    const { result } = apply(pets(), overlay);
    const { paths } = result as ReturnType<typeof pets>;
    expect(paths["/foo"].get).toEqual({ description: "This is the new description", responses: {} });
    expect(paths["/bar"]).toEqual({
      get: { description: "This is the updated description", responses: {} },
      post: { description: "This is an updated description of a child object", "x-safe": false },
    });
  });

  it("wildcard: `$.paths.*.get` and a filter with `&&`", () => {
    const overlay = `overlay: 1.0.0
info:
  title: Update many objects at once
  version: 1.0.0
actions:
  - target: $.paths.*.get
    update:
      x-safe: true
  - target: $.paths.*.get.parameters[?@.name=='filter' && @.in=='query']
    update:
      schema:
        $ref: '#/components/schemas/filterSchema'
`;
    const { result } = apply(pets(), overlay);
    const { paths } = result as ReturnType<typeof pets>;
    for (const item of Object.values(paths)) expect(item.get).toMatchObject({ "x-safe": true });
    expect(paths["/pets"].get.parameters).toEqual([
      { name: "filter", in: "query", schema: { $ref: "#/components/schemas/filterSchema" } },
      { name: "dummy", in: "query" },
    ]);
  });

  it("array modification: an update appends to a list, a filtered remove takes items out", () => {
    const add = `overlay: 1.0.0
info:
  title: Add an array element
  version: 1.0.0
actions:
  - target: $.paths.*.get.parameters
    update:
      name: newParam
      in: query
`;
    const remove = `overlay: 1.0.0
info:
  title: Remove a array element
  version: 1.0.0
actions:
  - target: $.paths.*.get.parameters[?@.name == 'dummy']
    remove: true
`;
    const added = apply(pets(), add).result as ReturnType<typeof pets>;
    expect(added.paths["/pets"].get.parameters.map((p) => p.name)).toEqual(["filter", "dummy", "newParam"]);
    const removed = apply(added, remove).result as ReturnType<typeof pets>;
    expect(removed.paths["/pets"].get.parameters.map((p) => p.name)).toEqual(["filter", "newParam"]);
  });

  it("traits: the 1.0.0 text's filter selects nothing on a list of traits (a warning); the operations' filter applies", () => {
    const overlay = `overlay: 1.0.0
info:
  title: Apply Traits
  version: 1.0.0
actions:
  - target: $.paths.*.get[?@.x-oai-traits.paged]
    update:
      parameters:
        - name: top
          in: query
`;
    const traits = () => ({
      paths: { "/items": { get: { "x-oai-traits": ["paged"], responses: {} } }, "/other": { get: {} } },
    });
    expect(apply(traits(), overlay, "traits.yaml").warnings).toEqual([
      "traits.yaml:6: action 1's target $.paths.*.get[?@.x-oai-traits.paged] selects nothing; the action changes nothing.",
    ]);
    const document = traits();
    const fixed = overlay.replace(".get[?@.x-oai-traits.paged]", "[?@['x-oai-traits'][?@ == 'paged']]");
    const { result } = apply(document, fixed);
    expect(result).toEqual({
      paths: {
        "/items": {
          get: {
            "x-oai-traits": ["paged"],
            responses: {},
            parameters: [{ name: "top", in: "query" }],
          },
        },
        "/other": { get: {} },
      },
    });
  });
});

describe("overlays that are not valid fail at their file and line", () => {
  const header = "overlay: 1.0.0\ninfo:\n  title: t\n  version: 1.0.0\n";
  // The schema tests' invalid overlays (tests/v1.0/fail of the specification's repository), and ours.
  const cases: Array<[string, string, RegExp]> = [
    ["not an object", "- root\n- must\n- be\n- an\n- object\n", /^o\.yaml:1:1: an overlay is a mapping/],
    [
      "overlay: 2",
      "overlay: 2\ninfo:\n  title: t\n  version: 1.0.0\nactions:\n  - target: '$'\n    remove: true\n",
      /^o\.yaml:1:\d+: `overlay: 2` is not a supported/,
    ],
    [
      "overlay: '1.0'",
      "overlay: '1.0'\ninfo:\n  title: t\n  version: 1.0.0\nactions:\n  - target: '$'\n    remove: true\n",
      /^o\.yaml:1:\d+: `overlay: 1\.0` is not a supported/,
    ],
    [
      "no overlay field",
      "info:\n  title: t\n  version: '1'\nactions: []\n",
      /^o\.yaml:\d+:\d+: not an overlay: it has no `overlay` field/,
    ],
    [
      "info not a mapping",
      "overlay: 1.0.0\ninfo: invalid\nactions:\n  - target: '$'\n",
      /^o\.yaml:2:\d+: `info` must be a mapping/,
    ],
    [
      "info without title",
      "overlay: 1.0.0\ninfo:\n  version: 1.0.0\nactions:\n  - target: '$'\n",
      /^o\.yaml:3:\d+: `info\.title` must be a text/,
    ],
    [
      "info.version not a text",
      "overlay: 1.0.0\ninfo:\n  title: t\n  version: false\nactions:\n  - target: '$'\n",
      /^o\.yaml:4:\d+: `info\.version` must be a text/,
    ],
    [
      "no actions",
      `${header}extends: '/openapi.yaml'\n`,
      /^o\.yaml:1:1: `actions` must be a list of at least one action/,
    ],
    [
      "empty actions",
      `${header}actions: []\n`,
      /^o\.yaml:5:\d+: `actions` must be a list of at least one action/,
    ],
    ["actions a mapping", `${header}actions: {}\n`, /^o\.yaml:5:\d+: `actions` must be a list/],
    ["an action not a mapping", `${header}actions:\n  - 123\n`, /^o\.yaml:6:\d+: action 1 must be a mapping/],
    [
      "no target",
      `${header}actions:\n  - update: my description\n`,
      /^o\.yaml:6:\d+: action 1 needs a `target`/,
    ],
    [
      "target not a text",
      `${header}actions:\n  - target: 100\n    remove: true\n`,
      /^o\.yaml:6:\d+: action 1 needs a `target`/,
    ],
    [
      "target not JSONPath",
      `${header}actions:\n  - target: info.description\n    update: x\n`,
      /^o\.yaml:6:\d+: the target of action 1, "info\.description", is not a JSONPath query \(RFC 9535\)/,
    ],
    [
      "remove not a boolean",
      `${header}actions:\n  - target: '$'\n    remove: maybe\n`,
      /^o\.yaml:7:\d+: `remove` of action 1 must be true or false/,
    ],
    [
      "description not a text",
      `${header}actions:\n  - target: '$'\n    description: 10\n    remove: true\n`,
      /^o\.yaml:7:\d+: the `description` of action 1 must be a text/,
    ],
    [
      "extends not a text",
      `${header}extends: {}\nactions:\n  - target: '$'\n    remove: true\n`,
      /^o\.yaml:5:\d+: `extends` must be a text/,
    ],
    [
      "an unknown field",
      `${header}actions:\n  - target: '$'\n    remove: true\ninvalidProperty: true\n`,
      /^o\.yaml:\d+:\d+: unknown field `invalidProperty` in an overlay/,
    ],
    [
      "neither update nor remove (minimal.yaml: a no-op)",
      `${header}actions:\n  - target: '$' # Root of document\n`,
      /^o\.yaml:6:\d+: action 1 \(\$\) neither updates nor removes anything/,
    ],
    [
      "both update and remove",
      `${header}actions:\n  - target: $.paths.*.get.parameters\n    update:\n      name: p\n    remove: true\n`,
      /^o\.yaml:6:\d+: action 1 .* has more than one of `update`, `copy` and `remove: true`/,
    ],
    [
      "copy in 1.0",
      `${header}actions:\n  - target: '$.info'\n    copy: '$.servers[0]'\n`,
      /^o\.yaml:7:\d+: action 1 has `copy`, which Overlay 1\.1 added/,
    ],
    ["not YAML", "overlay: [1.0.0\n", /^o\.yaml:\d+(:\d+)?: is not valid YAML or JSON/],
  ];
  for (const [name, text, message] of cases) {
    it(name, () => {
      let thrown: unknown;
      try {
        parseOverlay(text, "o.yaml");
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(OverlayError);
      expect((thrown as Error).message).toMatch(message);
    });
  }

  it("an update that cannot merge fails at its action's line", () => {
    const overlay = parseOverlay(`${header}actions:\n  - target: $.info\n    update: a text\n`, "o.yaml");
    expect(() => applyOverlay({ info: { title: "x" } }, overlay, () => {})).toThrow(
      /^o\.yaml:6: action 1 \(\$\.info\) selects an object, so its `update` must be a mapping/,
    );
    const primitive = parseOverlay(
      `${header}actions:\n  - target: $.info.title\n    update: New\n`,
      "o.yaml",
    );
    expect(() => applyOverlay({ info: { title: "x" } }, primitive, () => {})).toThrow(
      /selects the string "x"/,
    );
  });
});

describe("applying", () => {
  it("warns, at the action's line, about a target that selects nothing, and goes on", () => {
    const text = `overlay: 1.0.0
info: { title: t, version: '1' }
actions:
  - target: $.tags[?@.name == 'Payments']
    update: { x-page-title: Payments }
  - target: $.info
    update: { x-logo: logo.png }
`;
    const { result, warnings } = apply({ info: { title: "x" }, tags: [] }, text, "overlays/gitbook.yaml");
    expect(warnings).toEqual([
      "overlays/gitbook.yaml:4: action 1's target $.tags[?@.name == 'Payments'] selects nothing; the action changes nothing.",
    ]);
    expect(result).toEqual({ info: { title: "x", "x-logo": "logo.png" }, tags: [] });
  });

  it("applies actions in order: a removed node can be made anew", () => {
    const text = `overlay: 1.0.0
info: { title: t, version: '1' }
actions:
  - target: $.servers
    remove: true
  - target: $
    update:
      servers: [{ url: 'https://sandbox.example.com' }]
`;
    const { result } = apply({ servers: [{ url: "https://a" }, { url: "https://b" }] }, text);
    expect(result).toEqual({ servers: [{ url: "https://sandbox.example.com" }] });
  });

  it("removes several items of one list, whatever order the query gives them in", () => {
    const text = `overlay: 1.0.0
info: { title: t, version: '1' }
actions:
  - target: $.list[?@.drop == true]
    remove: true
`;
    const list = [0, 1, 2, 3, 4, 5].map((n) => ({ n, drop: n % 2 === 0 }));
    const { result } = apply({ list }, text);
    expect((result as { list: Array<{ n: number }> }).list.map((item) => item.n)).toEqual([1, 3, 5]);
  });

  it("1.1: `copy`, concatenating lists and replacing primitives", () => {
    const text = `overlay: 1.1.0
info: { title: t, version: '1' }
actions:
  - target: $.components.schemas
    update: { Bar: {} }
  - target: $.components.schemas.Bar
    copy: $.components.schemas.Foo
  - target: $.tags
    update: [{ name: b }]
  - target: $.info.title
    update: New title
`;
    const { result } = apply(
      { info: { title: "Old" }, tags: [{ name: "a" }], components: { schemas: { Foo: { type: "string" } } } },
      text,
    );
    expect(result).toEqual({
      info: { title: "New title" },
      tags: [{ name: "a" }, { name: "b" }],
      components: { schemas: { Foo: { type: "string" }, Bar: { type: "string" } } },
    });
  });

  it("never changes what the overlay holds when it applies an update to several nodes", () => {
    const parsed = parseOverlay(
      "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.a[*]\n    update: { x: { y: [1] } }\n",
      "o.yaml",
    );
    const document = { a: [{}, {}] };
    applyOverlay(document, parsed, () => {});
    (document.a[0] as { x: { y: number[] } }).x.y.push(2);
    expect(document.a[1]).toEqual({ x: { y: [1] } });
  });

  it("stops, before copying, an action whose copies would outweigh a spec (a large `copy` into many nodes)", () => {
    const parsed = parseOverlay(
      "overlay: 1.1.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.t[*]\n    copy: $.big\n",
      "o.yaml",
    );
    const document = { big: { text: "x".repeat(1024 * 1024) }, t: Array.from({ length: 40 }, () => ({})) };
    expect(() => applyOverlay(document, parsed, () => {})).toThrow(
      /^o\.yaml:4: action 1 \(\$\.t\[\*\]\) merges its copied value into 40 nodes; .* over the 32\.0 MiB limit/,
    );
    expect(document.t[0]).toEqual({});
  });

  it("stops targets that select more than a million nodes, at its action's line", () => {
    const parsed = parseOverlay(
      "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $..*\n    remove: true\n",
      "o.yaml",
    );
    const document = { a: Array.from({ length: 1500 }, () => new Array(700).fill(0)) };
    expect(() => applyOverlay(document, parsed, () => {})).toThrow(
      /^o\.yaml:4: action 1's target \$\.\.\* selects more nodes than one spec's targets may select together \(1,000,000, counting those each segment passes to the next\); narrow it/,
    );
    expect(document.a).toHaveLength(1500);
  });

  it("runs match() and search() patterns that backtrack in JavaScript's RegExp, with their RFC 9535 results", () => {
    // Refused before, when patterns ran with RegExp: `(a+)+$` took 36 s on 29 characters there.
    const text = `${"a".repeat(3000)}!`;
    const document = { a: [{ d: text }, { d: "b" }, { d: "aab" }, { d: "ccZ" }] };
    const parsed = parseOverlay(
      `overlay: 1.0.0
info: { title: t, version: '1' }
actions:
  - target: "$.a[?search(@.d, '(a+)+$')]"
    update: { x: 1 }
  - target: "$.a[?match(@.d, '(a|a)*b')]"
    update: { y: 1 }
  - target: "$.a[?match(@.d, '.*.*.*.*.*.*Z')]"
    update: { z: 1 }
  - target: "$.a[?match(@.d, '(a*){9}Z')]"
    update: { w: 1 }
`,
      "o.yaml",
    );
    const warnings: string[] = [];
    applyOverlay(document, parsed, (message) => warnings.push(message));
    expect(document.a).toEqual([{ d: text }, { d: "b", y: 1 }, { d: "aab", y: 1 }, { d: "ccZ", z: 1 }]);
    expect(warnings).toEqual([
      "action 1's target $.a[?search(@.d, '(a+)+$')] selects nothing; the action changes nothing.",
      "action 4's target $.a[?match(@.d, '(a*){9}Z')] selects nothing; the action changes nothing.",
    ]);
  });
});
