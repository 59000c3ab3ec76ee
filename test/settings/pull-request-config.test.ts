import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FileAtCommit } from "../../src/core/ports.ts";
import { parseConfigFile } from "../../src/settings/config-file.ts";
import {
  type BaseConfigText,
  pullRequestConfig,
  readBaseConfig,
  TRUST_SETTINGS,
} from "../../src/settings/pull-request-config.ts";
import { SETTINGS } from "../../src/settings/settings-table.ts";

const COMMIT = "a".repeat(40);
const head = (text: string) => parseConfigFile(text, "gitbook-openapi.yaml");
const base = (text: string | undefined): BaseConfigText => ({ ok: true, commit: COMMIT, text });
const noInputs = () => "";

/** What a run reads: inputs first, then the files in order. */
function reader(files: ReturnType<typeof pullRequestConfig>["files"], inputs: Record<string, string> = {}) {
  return (name: string) => inputs[name] || files.find((f) => f.values.has(name))?.values.get(name) || "";
}

describe("the configuration file on a pull or merge request", () => {
  it("takes every trust setting from the base's file, and the rest of a preview from the head's", () => {
    const config = pullRequestConfig({
      head: head("api-url: https://evil.example\nslug-prefix: new\ncomment-key: theirs\nprune: true\n"),
      base: base("api-url: https://api.gitbook.com\nslug-prefix: old\n"),
      fileName: "gitbook-openapi.yaml",
      readInput: noInputs,
    });
    const read = reader(config.files);
    expect(read("api-url")).toBe("https://api.gitbook.com");
    expect(read("slug-prefix")).toBe("new");
    expect(read("comment-key")).toBe("");
    expect(read("prune")).toBe("");
    expect(config.warnings).toHaveLength(3);
    for (const key of ["api-url", "comment-key", "prune"])
      expect(config.warnings.join("\n")).toContain(
        `'${key}' differs from the base commit's file and was ignored`,
      );
  });

  it("is silent when the head's file sets a trust setting as the base's does", () => {
    const text = "organization: acme\nmode: auto\n";
    const config = pullRequestConfig({
      head: head(text),
      base: base(text),
      fileName: "x",
      readInput: noInputs,
    });
    expect(reader(config.files)("organization")).toBe("acme");
    expect(config.warnings).toEqual([]);
  });

  it("takes nothing from the head's file when the run publishes live (mode from an input or the base)", () => {
    for (const [inputs, baseText] of [
      [{ mode: "publish" }, "organization: acme\n"],
      [{}, "organization: acme\nmode: publish\n"],
    ] as const) {
      const config = pullRequestConfig({
        head: head(
          "organization: acme\nslugs:\n  a.yaml: billing-live\nspecs:\n  a.yaml: { remove-internal: true }\n",
        ),
        base: base(baseText),
        fileName: "gitbook-openapi.yaml",
        readInput: (name) => (inputs as Record<string, string>)[name] ?? "",
      });
      const read = reader(config.files, inputs);
      expect(read("slugs")).toBe("");
      expect(read("specs:shaping")).toBe("");
      expect(read("organization")).toBe("acme");
      expect(config.warnings.join("\n")).toContain("'slugs' differs");
      expect(config.warnings.join("\n")).toContain("'specs' differs");
      expect(config.warnings.join("\n")).toContain("publishes live");
    }
  });

  it("uses no trust setting of a file when the base's cannot be read, and says why", () => {
    for (const unreadable of [
      { ok: false, reason: "the commit 0000 is not in the checkout" } as const,
      base("timeout: [not a number]\n"),
    ]) {
      const config = pullRequestConfig({
        head: head("organization: evil\ntimeout: 30\n"),
        base: unreadable,
        fileName: "gitbook-openapi.yaml",
        readInput: noInputs,
      });
      const read = reader(config.files);
      expect(read("organization")).toBe("");
      expect(read("timeout")).toBe("30");
      expect(config.warnings).toEqual([
        expect.stringMatching(/cannot be read \(.+\), so what it sets for 'organization' was ignored/),
      ]);
    }
  });

  it("treats a base without the file as a base that sets nothing", () => {
    const config = pullRequestConfig({
      head: head("api-url: https://evil.example\n"),
      base: base(undefined),
      fileName: "gitbook-openapi.yaml",
      readInput: noInputs,
    });
    expect(reader(config.files)("api-url")).toBe("");
    expect(config.warnings).toEqual([
      expect.stringContaining("'api-url' differs from the base commit's file"),
    ]);
  });

  it("declares the trust settings of issue 25, and the pull request's gate, in the settings table", () => {
    expect([...TRUST_SETTINGS].sort()).toEqual(
      [
        "api-url",
        "breaking-allowed",
        "cache-file",
        "comment-key",
        "fail-on-breaking",
        "fail-on-unreviewed",
        "mode",
        "organization",
        "organization-domain",
        "prune",
        "prune-limit",
        "review-heap-mb",
        "review-timeout-ms",
        "source",
      ].sort(),
    );
    expect(SETTINGS.filter((s) => s.secret || s.perRun).every((s) => s.headFile === "never")).toBe(true);
  });

  it("is stated in the security guide (docs/security.md), naming every trust setting", () => {
    const security = readFileSync(new URL("../../docs/security.md", import.meta.url), "utf8");
    for (const name of TRUST_SETTINGS) expect(security).toContain(`\`${name}\``);
    expect(security).toContain("| `pull_request_target` |");
  });
});

describe("readBaseConfig", () => {
  it("asks git for the named file, else each default file in turn, relative to the folder", async () => {
    const asked: string[] = [];
    const git = {
      fileAt: async (_folder: string, _commit: string, file: string): Promise<FileAtCommit> => {
        asked.push(file);
        return { ok: true, text: file === "gitbook-openapi.yml" ? "organization: acme\n" : undefined };
      },
    };
    const found = await readBaseConfig(git, { folder: "/w", commit: COMMIT, named: undefined });
    expect(asked).toEqual(["gitbook-openapi.yaml", "gitbook-openapi.yml"]);
    expect(found).toEqual({ fileName: "gitbook-openapi.yml", base: base("organization: acme\n") });
    const unknown = await readBaseConfig(git, { folder: "/w", commit: undefined, named: "conf/x.yaml" });
    expect(unknown).toEqual({ fileName: "conf/x.yaml", base: { ok: false, reason: expect.any(String) } });
  });
});
