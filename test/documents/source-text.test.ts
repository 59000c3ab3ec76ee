import { describe, expect, it } from "vitest";
import { parseSource, SourceSyntaxError } from "../../src/core/documents/source-text.ts";

describe("parseSource (YAML)", () => {
  it("reads what GitBook's YAML reader accepts where js-yaml refuses: Docker's Engine API form", () => {
    // moby/moby api/swagger.yaml, ContainerConfig.ExposedPorts: a flow mapping closed at its key's indentation.
    const text = [
      "swagger: '2.0'",
      "definitions:",
      "  ContainerConfig:",
      "    properties:",
      "      ExposedPorts:",
      "        example: {",
      '          "80/tcp": {},',
      '          "443/tcp": {}',
      "        }",
      "      Tty:",
      "        type: boolean",
      "",
    ].join("\n");
    const document = parseSource(text, false) as { definitions: Record<string, { properties: unknown }> };
    expect(document.definitions.ContainerConfig?.properties).toEqual({
      ExposedPorts: { example: { "80/tcp": {}, "443/tcp": {} } },
      Tty: { type: "boolean" },
    });
  });

  it.each([
    ["an unclosed flow sequence", "a: [1,\nb: 2\n", 2],
    ["a duplicate key", "a: 1\na: 2\n", 2],
  ])("still refuses %s, with its line", (_name, text, line) => {
    let caught: unknown;
    try {
      parseSource(text, false);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SourceSyntaxError);
    expect((caught as SourceSyntaxError).line).toBe(line);
  });
});
