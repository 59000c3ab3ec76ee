import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { GitBookClient, readVersionFiles, type Spec } from "../../src/adapters/gitbook/index.ts";
import { parseSource } from "../../src/core/documents/source-text.ts";
import { PETSTORE_YAML, SWAGGER_YAML, waitForSpec } from "../support/emulator-fixtures.ts";

const ORG = "demo-org";

let emulator: RunningEmulator;
let client: GitBookClient;

beforeAll(async () => {
  emulator = await startEmulator({ processing: { pendingMs: 5, progressMs: 5 } });
  client = new GitBookClient({ token: emulator.token, baseUrl: emulator.baseUrl });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

/** Uploads `text` as the spec `slug`, waits for the end of processing, and reads what GitBook holds. */
async function publish(slug: string, text: string): Promise<{ spec: Spec; content: unknown }> {
  await client.putSpec(ORG, slug, { text });
  await waitForSpec(emulator, ORG, slug);
  const spec = await client.getSpec(ORG, slug);
  const content = await client.getVersionContent(ORG, slug, spec.lastVersion ?? "?");
  return { spec, content };
}

describe("a processed spec's version content, over loopback", () => {
  it("is one entrypoint holding the parsed document, read by the client as a list of files", async () => {
    const published = await publish("content-pets", PETSTORE_YAML);
    const local = parseSource(PETSTORE_YAML, false);

    expect(readVersionFiles((published.content as { filesystem: unknown }).filesystem)).toEqual({
      kind: "files",
      entries: [
        { dir: ".", filename: "openapi.yaml", isEntrypoint: true, references: [], specification: local },
      ],
    });
  });

  it("keeps the last good version's content after a failed processing, which the spec reports", async () => {
    const first = await publish("content-broken", PETSTORE_YAML);
    await client.putSpec(ORG, "content-broken", { text: "openapi: [unclosed" });
    await waitForSpec(emulator, ORG, "content-broken", (spec) => spec.lastProcessErrorCode !== undefined);
    const spec = await client.getSpec(ORG, "content-broken");
    expect(spec).toMatchObject({ lastProcessErrorCode: "PARSE_ERROR", lastVersion: first.spec.lastVersion });
    const content = await client.getVersionContent(ORG, "content-broken", spec.lastVersion ?? "?");
    expect(content).toEqual(first.content);
  });

  it("serves Swagger 2.0 upgraded to OpenAPI 3.1.1, as GitBook's parser stores it", async () => {
    const published = await publish("content-swagger", SWAGGER_YAML);
    expect(published.content).toMatchObject({
      filesystem: [
        {
          isEntrypoint: true,
          specification: { openapi: "3.1.1", info: { title: "Old", version: "1" }, paths: {} },
        },
      ],
    });
    const specification = (published.content as { filesystem: { specification: object }[] }).filesystem[0]
      ?.specification;
    expect(specification).not.toHaveProperty("swagger");
  });
});
