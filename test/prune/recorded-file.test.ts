/** A publish record's path comes from GitBook: hostile ones are never looked up, and never prove a removal. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordedFileIn } from "../../src/core/prune/recorded-file.ts";

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "recorded-file-"));
  await mkdir(path.join(workspace, "specs"));
  await writeFile(
    path.join(workspace, "specs", "pets.yaml"),
    "openapi: 3.1.0\ninfo: {title: P, version: '1'}\npaths: {}\n",
  );
  await writeFile(path.join(workspace, "specs", "notes.yaml"), "title: not a spec\n");
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe("recordedFileIn", () => {
  it.each([
    "../outside.yaml",
    "/etc/passwd",
    "specs/../../x.yaml",
    "specs//pets.yaml",
    "specs\\pets.yaml",
    "a\nb.yaml",
    "",
    "./pets.yaml",
  ])("keeps the spec of the unusable path %j without looking it up", async (hostile) => {
    expect(await recordedFileIn(workspace, hostile, new Map())).toEqual({
      kind: "kept",
      why: "is not a plain path inside the repository, so it cannot be checked",
    });
  });

  it("tells removed, republished, left-out and unrecognised files apart", async () => {
    const published = new Map([["specs/pets.yaml", "pets-v2"]]);
    expect(await recordedFileIn(workspace, "specs/gone.yaml", published)).toMatchObject({ kind: "gone" });
    expect(await recordedFileIn(workspace, "specs/pets.yaml", published)).toMatchObject({
      kind: "gone",
      why: "its file specs/pets.yaml is published as 'pets-v2' now",
    });
    expect(await recordedFileIn(workspace, "specs/pets.yaml", new Map())).toMatchObject({ kind: "kept" });
    expect(await recordedFileIn(workspace, "specs/notes.yaml", new Map())).toMatchObject({
      kind: "unrecognised",
    });
  });

  it("does not follow a link out of the repository: its spec is kept, never deleted", async () => {
    await symlink("/etc/hostname", path.join(workspace, "specs", "link.yaml"));
    expect(await recordedFileIn(workspace, "specs/link.yaml", new Map())).toEqual({
      kind: "unrecognised",
      reason: "it is a link that leads out of the repository",
    });
  });
});
