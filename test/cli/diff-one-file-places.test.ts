/**
 * The places `diff` gives the changes of a spec written in one file, whose references lead inside it
 * (read from its text, bundling/text-locations.ts): a response reached through a folded `$ref: >-`
 * changes its schema (placed at the component's line) and loses a media type (placed where the head
 * still writes the response's `content`, and at the base's line of the media type). The pull request's
 * review on a laptop (`diff --base`, a real git repository) and the two files compared (`diff <base>
 * <head>`) say the same lines, in process through `runCli`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpecChange } from "../../src/core/result.ts";
import type { DiffResult } from "../../src/hosts/cli/diff.ts";
import type { DiffBaseResult } from "../../src/hosts/cli/diff-base.ts";
import { initCommitted } from "../support/git.ts";
import { lineOf } from "../support/line-of.ts";
import { runCli } from "./run-cli.ts";

const BASE = `openapi: 3.0.3
info:
  title: Pets
  version: "1"
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - $ref: '#/components/parameters/Limit'
      responses:
        "200":
          $ref: >-
            #/components/responses/PetList
components:
  parameters:
    Limit:
      name: limit
      in: query
      schema:
        type: integer
  responses:
    PetList:
      description: ok
      content:
        application/json:
          schema:
            type: array
        application/xml:
          schema:
            type: array
`;

const HEAD = BASE.replace(/ {8}application\/xml:[\s\S]*$/, "").replace(
  "          schema:\n            type: array\n",
  "          schema:\n            type: object\n",
);

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "gitbook-cli-diff-one-file-"));
  await writeFile(path.join(tmp, "openapi.yaml"), BASE);
  initCommitted(tmp);
  await writeFile(path.join(tmp, "openapi.yaml"), HEAD);
  await writeFile(path.join(tmp, "base.yaml"), BASE);
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const components = lineOf(HEAD, "components:");
const expected = {
  schema: { line: lineOf(HEAD, "          schema:", components) },
  xml: { line: lineOf(HEAD, "      content:"), baseLine: lineOf(BASE, "        application/xml:") },
};

function places(changes: SpecChange[]) {
  const by = (pointer: string) => changes.find((change) => change.pointer === pointer);
  const place = (change: SpecChange | undefined) => ({ line: change?.line, baseLine: change?.baseLine });
  return {
    schema: place(by("#/paths/~1pets/get/responses/200/content/application~1json/schema")),
    xml: place(by("#/paths/~1pets/get/responses/200/content/application~1xml")),
  };
}

describe("diff on a spec of one file", () => {
  it("places each change where the head writes it, following the references inside the file", async () => {
    const run = await runCli(["diff", "--base", "main", "--json"], { cwd: tmp });
    expect(run.stderr).toBe("");
    const spec = (JSON.parse(run.stdout) as DiffBaseResult).specs.find((s) => s.file === "openapi.yaml");
    expect(spec?.breaking.map((change) => change.file)).toEqual(["openapi.yaml", "openapi.yaml"]);
    const found = places(spec?.breaking ?? []);
    expect(found).toEqual({
      schema: { line: expected.schema.line, baseLine: undefined },
      xml: { line: expected.xml.line, baseLine: expected.xml.baseLine },
    });
  });

  it("gives the same lines comparing the two files", async () => {
    const run = await runCli(["diff", "base.yaml", "openapi.yaml", "--json"], { cwd: tmp });
    expect(run.stderr).toBe("");
    const found = places((JSON.parse(run.stdout) as DiffResult).breaking);
    expect(found).toEqual({
      schema: { line: expected.schema.line, baseLine: undefined },
      xml: { line: expected.xml.line, baseLine: expected.xml.baseLine },
    });
  });

  it("names a file whose name starts with '..' from the current directory, not by its absolute path", async () => {
    await writeFile(path.join(tmp, "..base.yaml"), BASE);
    await writeFile(path.join(tmp, "..head.yaml"), HEAD);
    const run = await runCli(["diff", "..base.yaml", "..head.yaml", "--json"], { cwd: tmp });
    expect(run.stderr).toBe("");
    const breaking = (JSON.parse(run.stdout) as DiffResult).breaking;
    expect(breaking.map((change) => change.file)).toEqual(["..head.yaml", "..head.yaml"]);
    expect(breaking.map((change) => change.baseFile).filter(Boolean)).toEqual(["..base.yaml"]);
  });
});
