/**
 * The lines a collision's fix suggests work when pasted into the workflow: a `files` exclusion removes
 * exactly its file (checked through discovery's own pattern matching on real files), and a `slugs` line
 * reads back as the same path and slug, also once embedded in YAML.
 */

import fs from "node:fs/promises";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { discoverSpecs } from "../../src/core/discovery/index.ts";
import { silentLogger } from "../../src/core/logger.ts";
import { formatExcludeLine } from "../../src/core/slugs/exclusion.ts";
import { formatSlugLine, parseSlugMapping, UNWRITABLE_IN_INPUT } from "../../src/core/slugs/mapping.ts";
import { makeTree, OPENAPI_YAML } from "../discovery/helpers.ts";

const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

describe("formatExcludeLine", () => {
  const names = [
    "a*.yaml",
    "a?.yaml",
    "[x].yaml",
    "b[1].yml",
    "dir[1]/*/x.yaml",
    " lead.yaml",
    "trail .yaml",
    "#hash.yaml",
    "!bang.yaml",
    "sp ace/x.yaml",
    "a{b,c}.yaml",
    "+(x).yaml",
    "x:y.yaml",
    "%0A.yaml",
    "é/ü.yaml",
  ];
  const neighbours = ["ab.yaml", "a.yaml", "x.yaml", "b1.yml", "dir1/y/x.yaml", "lead.yaml", "trail.yaml"];

  it("excludes exactly the file it names, whatever its name (through discovery's patterns)", async () => {
    const all = [...names, ...neighbours];
    const root = await makeTree(Object.fromEntries(all.map((name) => [name, OPENAPI_YAML])));
    cleanup.push(root);
    const everything = await discoverSpecs({
      workspace: root,
      git: commandLineGit,
      patterns: ["**"],
      logger: silentLogger,
    });
    expect(everything.specs.map((s) => s.path).sort()).toEqual([...all].sort());
    for (const name of names) {
      const line = formatExcludeLine(name);
      expect(line, name).toBeDefined();
      const found = await discoverSpecs({
        workspace: root,
        git: commandLineGit,
        patterns: [`**\n${line}`],
        logger: silentLogger,
      });
      expect(found.specs.map((s) => s.path).sort(), `${name} → ${line}`).toEqual(
        all.filter((other) => other !== name).sort(),
      );
    }
  });

  it("refuses names that no line can carry", () => {
    for (const name of ["a\\b.yaml", "a\nb.yaml", "a\rb.yaml", "a\u0001.yaml", ""]) {
      expect(formatExcludeLine(name)).toBeUndefined();
    }
  });
});

describe("formatSlugLine", () => {
  it("writes plain paths as they are and quotes those a plain line would misread", () => {
    expect(formatSlugLine("api/openapi.yaml", "api")).toBe("api/openapi.yaml: api");
    expect(formatSlugLine("#x.yaml", "x")).toBe('"#x.yaml": x');
    expect(formatSlugLine(" x.yaml", "x")).toBe('" x.yaml": x');
    expect(formatSlugLine("a\\b.yaml", "x")).toBeUndefined();
  });

  it("reads back as the same path and slug, pasted into a YAML block (property)", () => {
    const path = fc.string({ unit: "binary", minLength: 1, maxLength: 40 });
    const slug = fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/);
    fc.assert(
      fc.property(path, slug, (filePath, slugText) => {
        const line = formatSlugLine(filePath, slugText);
        if (line === undefined) {
          // Only what the input normalizes away or cannot carry.
          const normalized = filePath.includes("\\") || filePath.includes("//") || filePath.startsWith("./");
          expect(normalized || UNWRITABLE_IN_INPUT.test(filePath)).toBe(true);
          return;
        }
        expect([...parseSlugMapping(line)]).toEqual([[filePath, slugText]]);
        const pasted = parseYaml(`with:\n  slugs: |\n    ${line}\n`) as { with: { slugs: string } };
        expect([...parseSlugMapping(pasted.with.slugs)]).toEqual([[filePath, slugText]]);
      }),
      { numRuns: 2000 },
    );
  });
});
