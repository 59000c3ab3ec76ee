import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileTooLargeError, readRegularText, withRegularFile } from "../../src/core/files/read-regular.ts";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "read-regular-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("reading workspace files", () => {
  it("hands each file its own bytes though the buffer is reused, small and large alike", async () => {
    const files = {
      "a.yaml": "a".repeat(10),
      "b.yaml": "b".repeat(3),
      "big.json": "c".repeat(5 * 1024 * 1024),
    };
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(folder, name), text);
    const limits = (label: string) => ({ maxBytes: 32 * 1024 * 1024, label });
    const seen = Object.keys(files).map((name) =>
      withRegularFile(path.join(folder, name), limits(name), (bytes) => bytes.toString("utf8")),
    );
    expect(seen).toEqual(Object.values(files));
    expect(readRegularText(path.join(folder, "a.yaml"), limits("a.yaml"))).toBe(files["a.yaml"]);
  });

  // /proc files are regular files whose size reads as 0: what they hold is read to its end all the same,
  // as a file that grows after its size was taken is, and the limit still holds.
  it.runIf(process.platform === "linux")("reads past the size taken when the file holds more", () => {
    const text = readRegularText("/proc/self/status", { maxBytes: 1024 * 1024, label: "status" });
    expect(text).toMatch(/^Name:/);
    expect(() => readRegularText("/proc/self/status", { maxBytes: 16, label: "status" })).toThrow(
      FileTooLargeError,
    );
  });
});
