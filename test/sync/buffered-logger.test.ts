import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../src/logger.ts";
import { BufferedLogger } from "../../src/sync/buffered-logger.ts";

describe("BufferedLogger", () => {
  it("writes a spec's lines as one group, in order, keeping annotation locations", async () => {
    const target = new MemoryLogger();
    const first = new BufferedLogger();
    const second = new BufferedLogger();
    first.info("a1");
    second.info("b1");
    first.error("a2", { file: "a.yaml", line: 3, column: 7 });
    second.warning("b2");

    await second.flushInto(target, "b.yaml");
    await first.flushInto(target, "a.yaml");

    expect(target.entries).toEqual([
      { level: "group", message: "b.yaml" },
      { level: "info", message: "b1" },
      { level: "warning", message: "b2" },
      { level: "group", message: "a.yaml" },
      { level: "info", message: "a1" },
      { level: "error", message: "a2", location: { file: "a.yaml", line: 3, column: 7 } },
    ]);
    await first.flushInto(target, "again");
    expect(target.entries.at(-1)).toEqual({ level: "group", message: "again" });
  });
});
