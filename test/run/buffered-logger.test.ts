import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../src/core/logger.ts";
import { BufferedLogger } from "../../src/core/run/buffered-logger.ts";

describe("BufferedLogger", () => {
  it("writes a spec's lines as one group, in order, keeping annotation locations", () => {
    const target = new MemoryLogger();
    const first = new BufferedLogger();
    const second = new BufferedLogger();
    first.info("a1");
    second.info("b1");
    first.error("a2", { file: "a.yaml", line: 3, column: 7 });
    second.warning("b2");

    second.flushInto(target, "b.yaml");
    first.flushInto(target, "a.yaml");

    expect(target.entries).toEqual([
      { level: "group", message: "b.yaml" },
      { level: "info", message: "b1" },
      { level: "warning", message: "b2" },
      { level: "endgroup", message: "b.yaml" },
      { level: "group", message: "a.yaml" },
      { level: "info", message: "a1" },
      { level: "error", message: "a2", location: { file: "a.yaml", line: 3, column: 7 } },
      { level: "endgroup", message: "a.yaml" },
    ]);
    first.flushInto(target, "again");
    expect(target.entries.slice(-2)).toEqual([
      { level: "group", message: "again" },
      { level: "endgroup", message: "again" },
    ]);
  });

  it("never nests groups: a group logged into a buffer becomes a line of the spec's group", () => {
    const target = new MemoryLogger();
    const buffer = new BufferedLogger();
    buffer.group("inner", () => buffer.info("x"));
    buffer.flushInto(target, "outer");
    expect(target.entries.map((e) => `${e.level} ${e.message}`)).toEqual([
      "group outer",
      "info inner",
      "info x",
      "endgroup outer",
    ]);
  });
});
