/**
 * The `uri` and `uri-reference` formats' fast paths (src/core/validation/uri-format.ts) answer as
 * ajv-formats' full checks do, for every text: plain URLs, URLs with user info, IP literals and escapes,
 * other schemes, fragments, relative references, and all of these with a character changed anywhere.
 * Then through the user's path: a 3.0 spec's URI fields and references.
 */
import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { MemoryLogger } from "../../src/core/logger.ts";
import { loadStructuralCheck, validateSpecDocument } from "../../src/core/validation/index.ts";
import { uri, uriReference } from "../../src/core/validation/uri-format.ts";
import { loadedSpec } from "../support/loaded-spec.ts";

beforeAll(loadStructuralCheck);

const fullUri = fullFormats.uri as (text: string) => boolean;
const fullUriReference = fullFormats["uri-reference"] as RegExp;
const URI_CHARACTERS = [..."abcXYZ019-._~!$&'()*+,;=:@/?#[]%20 \"<>\\^`{|}\t\né"];

const webUrls = fc.webUrl({
  validSchemes: ["https", "http", "ftp", "git+ssh", "urn"],
  authoritySettings: {
    withIPv4: true,
    withIPv6: true,
    withPort: true,
    withUserInfo: true,
  },
  withQueryParameters: true,
  withFragments: true,
});
const references = fc.oneof(
  webUrls,
  webUrls.map((url) => url.replace(/^[a-z+]+:/, "")),
  fc.webFragments().map((fragment) => `#${fragment}`),
  fc.webPath().map((pointer) => `#${pointer}`),
  fc.tuple(fc.webSegment(), fc.webPath()).map(([file, pointer]) => `${file}.yaml#${pointer}`),
);
const changed = fc
  .tuple(references, fc.nat(), fc.constantFrom(...URI_CHARACTERS), fc.boolean())
  .map(([url, at, character, insert]) => {
    const index = at % (url.length + 1);
    return url.slice(0, index) + character + url.slice(insert ? index : index + 1);
  });
const anyText = fc.oneof(
  references,
  changed,
  fc.string({ unit: fc.constantFrom(...URI_CHARACTERS), maxLength: 40 }),
  fc.string(),
);

describe("the uri format", () => {
  it("answers as ajv-formats' full checks for every text", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(uri(text), text).toBe(fullUri(text));
        expect(uriReference(text), text).toBe(fullUriReference.test(text));
      }),
      { seed: 28, numRuns: 20_000 },
    );
  });

  it("accepts and refuses a 3.0 spec's URI fields as the full checks do", () => {
    const values = [
      "https://api.pets.dev/licenses/MIT?x=1#a",
      "http://[::1]:8080/x",
      "not a uri",
      "#/a b",
      "/x",
    ];
    for (const value of values) {
      const document = {
        openapi: "3.0.3",
        info: { title: "Pets", version: "1", license: { name: "MIT", url: value } },
        paths: {},
        components: { schemas: { Pet: { type: "object", xml: { namespace: value } } } },
      };
      const spec = loadedSpec(JSON.stringify(document), "json", "pets.json");
      const log = new MemoryLogger();
      validateSpecDocument(spec, log);
      const said = log.entries.map((entry) => entry.message);
      const refused = (format: string) => said.some((message) => message.includes(`a valid ${format};`));
      expect(refused("uri-reference"), value).toBe(!fullUriReference.test(value));
      expect(refused("uri"), value).toBe(!fullUri(value));
    }
  });
});
