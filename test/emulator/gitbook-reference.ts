/**
 * GitBook's `parseOpenAPI` (GitbookIO/gitbook `packages/openapi-parser/src/parse.ts`, `v3.ts`, `v2.ts`,
 * `filesystem.ts`, commit 49c993f1) rebuilt from the same Scalar packages at the versions its lock file
 * holds (`@scalar/openapi-parser` 0.24.5, `@scalar/json-magic` 0.9.4), to check the emulator against.
 * Left out: the `fetchURL`/`fetchURLs` loader plugins, which only matter for external `$ref`s (the
 * documents checked here have none), and the errors' wording.
 */
import { bundle } from "@scalar/json-magic/bundle";
import { parseJson, parseYaml } from "@scalar/json-magic/bundle/plugins/browser";
import { upgrade, validate } from "@scalar/openapi-parser";

export interface ReferenceEntry {
  dir: string;
  isEntrypoint: boolean;
  references: string[];
  filename: string;
  specification: unknown;
}

/** `v3.ts` `parseOpenAPIV3`: "v2" where GitBook's version throws `parse-v2-in-v3`. */
async function parseV3(value: string | Record<string, unknown>): Promise<ReferenceEntry[] | "v2"> {
  const result = await validate(value);
  if (!result.version)
    throw new Error("Can’t find supported Swagger/OpenAPI version in the provided document");
  if (result.version === "2.0") return "v2";
  if (!result.specification) throw new Error("Invalid OpenAPI document");
  const specification = await bundle(result.specification, {
    treeShake: false,
    plugins: [parseYaml(), parseJson()],
  });
  return [{ dir: ".", isEntrypoint: true, references: [], filename: "openapi.json", specification }];
}

/** `parse.ts` `parseOpenAPI` with `v2.ts`: Swagger 2.0 is upgraded, then parsed as OpenAPI 3. */
export async function gitbookParseOpenAPI(text: string): Promise<ReferenceEntry[]> {
  const first = await parseV3(text);
  if (first !== "v2") return first;
  let upgraded: ReturnType<typeof upgrade>;
  try {
    upgraded = upgrade(text);
  } catch (error) {
    throw new Error("Failed to convert Swagger 2.0 to OpenAPI 3.1.1", { cause: error });
  }
  const second = await parseV3(upgraded.specification as Record<string, unknown>);
  if (second === "v2") throw new Error("still Swagger 2.0 after the upgrade");
  return second;
}
