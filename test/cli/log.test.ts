import { describe, expect, it } from "vitest";
import type { SpecResult } from "../../src/core/result.ts";
import { createCliLog } from "../../src/hosts/cli/log.ts";
import { Output } from "../../src/hosts/cli/output.ts";

function streams(tty: boolean) {
  const written: string[] = [];
  const stream = { write: (text: string) => written.push(text), isTTY: tty };
  const output = new Output({ env: {}, cwd: "/", stdout: { write: () => true }, stderr: stream });
  const isLive = (chunk: string) => chunk === "\r\x1b[K" || / done · /.test(chunk);
  return {
    output,
    text: () => written.join(""),
    /** What stays on the screen: the log without the live line's redraws. */
    log: () => written.filter((chunk) => !isLive(chunk)).join(""),
  };
}

const done = (status: SpecResult["status"]): SpecResult => ({
  file: "a.yaml",
  slug: "a",
  status,
  errors: [],
});

describe("the command line's log", () => {
  it("keeps a live count under the log on a terminal, and clears it when every spec is done", () => {
    const { output, text, log } = streams(true);
    const { logger, progress } = createCliLog(output, {
      gitlabSections: false,
      debug: false,
      liveColumns: 200,
    });
    progress({ kind: "planned", total: 2 });
    progress({ kind: "staged" });
    logger.group("a.yaml → a: published", () => logger.info("Created spec 'a'."));
    progress({ kind: "finished", result: done("published") });
    expect(text()).toContain("0/2 done · 1 uploaded · 1 processing · 0 ok · 0 failed");
    expect(log()).toBe("a.yaml → a: published\n  Created spec 'a'.\n");
    expect(text().endsWith("1/2 done · 1 uploaded · 0 processing · 1 ok · 0 failed")).toBe(true);
    progress({ kind: "staged" });
    progress({ kind: "finished", result: done("failed") });
    expect(text().endsWith("\r\x1b[K")).toBe(true);
  });

  it("writes plain lines in CI logs, problems with their place, and escapes control characters", () => {
    const { output, text } = streams(false);
    const { logger, progress } = createCliLog(output, {
      gitlabSections: false,
      debug: false,
      liveColumns: undefined,
    });
    progress({ kind: "planned", total: 1 });
    logger.error("bad \x1b[31mred\x1b[0m", { file: "api.yaml", line: 3, column: 2 });
    logger.debug("hidden");
    expect(text()).toBe("error: api.yaml:3:2: bad \\u001b[31mred\\u001b[0m\n");
  });

  it("names a problem's file once when the message already names it", () => {
    const { output, text } = streams(false);
    const { logger } = createCliLog(output, { gitlabSections: false, debug: false, liveColumns: undefined });
    logger.warning("Skipped link.yaml: it is a symbolic link to ../o.yaml.", { file: "link.yaml" });
    logger.error("a.yaml: Its local steps failed.", { file: "a.yaml" });
    logger.error("GitBook could not process a.yaml (PARSE_ERROR).", { file: "a.yaml" });
    logger.warning("Published, but reading its link failed.", { file: "a.yaml" });
    logger.warning("Skipped a.yaml: not a spec.", { file: "a.yaml", line: 1 });
    expect(text()).toBe(
      "warning: Skipped link.yaml: it is a symbolic link to ../o.yaml.\n" +
        "error: a.yaml: Its local steps failed.\n" +
        "error: GitBook could not process a.yaml (PARSE_ERROR).\n" +
        "warning: a.yaml: Published, but reading its link failed.\n" +
        "warning: a.yaml:1: Skipped a.yaml: not a spec.\n",
    );
  });

  it("writes groups as GitLab's collapsible sections in GitLab CI", () => {
    const { output, text } = streams(false);
    const { logger } = createCliLog(output, { gitlabSections: true, debug: false, liveColumns: undefined });
    logger.group("Plan (publish): 1 spec", () => logger.info("a.yaml → a"));
    expect(text()).toMatch(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: GitLab's section markers are escape sequences
      /^\x1b\[0Ksection_start:\d+:gitbook_openapi_1\[collapsed=true\]\r\x1b\[0KPlan \(publish\): 1 spec\na\.yaml → a\n\x1b\[0Ksection_end:\d+:gitbook_openapi_1\r\x1b\[0K\n$/,
    );
  });

  it("keeps a file name's line break on its line: in a group title and in a problem's place", () => {
    const { output, text } = streams(false);
    const { logger } = createCliLog(output, { gitlabSections: false, debug: false, liveColumns: undefined });
    const file = "b\nerror: forged.yaml";
    logger.group(`${file} → b: failed`, () => logger.error("info.version is missing", { file, line: 2 }));
    expect(text()).toBe(
      "b\\u000aerror: forged.yaml → b: failed\n  error: b\\u000aerror: forged.yaml:2: info.version is missing\n",
    );
    // No line of the log starts with a label the file name brought.
    expect(
      text()
        .split("\n")
        .filter((line) => line.startsWith("error:")),
    ).toEqual([]);
  });
});
