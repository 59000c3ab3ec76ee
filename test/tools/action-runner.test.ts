import { describe, expect, it } from "vitest";
import { parseAnnotations, parseOutputFile, renderLogAsRunner } from "../../harness/runner/action-runner.ts";

describe("the runner simulation's parsers", () => {
  it("reads GITHUB_OUTPUT heredoc blocks and plain lines", () => {
    const text = "results<<ghadelimiter_1\n[1,\n2]\nghadelimiter_1\npublished=3\n";
    expect(parseOutputFile(text)).toEqual({ results: "[1,\n2]", published: "3" });
  });

  it("reads annotations with their file, line and column, unescaping the message", () => {
    const stdout = "::error file=a%3Ab.yaml,line=3,col=7::bad%0Aworse\n::notice::fyi\nplain\n";
    expect(parseAnnotations(stdout)).toEqual([
      { level: "error", file: "a:b.yaml", line: 3, column: 7, message: "bad\nworse" },
      { level: "notice", message: "fyi" },
    ]);
  });

  it("renders the log as the Actions UI shows it, masked values hidden", () => {
    const stdout =
      "::add-mask::s3cret\n::debug::hidden\n::group::a.yaml\nused s3cret\n::endgroup::\n::warning file=a.yaml::careful\n";
    expect(renderLogAsRunner(stdout)).toBe("▸ a.yaml\n  used ***\nWARNING (file=a.yaml): careful");
  });

  it("keeps every line of a message of several lines inside its group", () => {
    const stdout = "::group::a.yaml\n::error file=a.yaml::failed:%0A- first%0A- second\n::endgroup::\n";
    expect(renderLogAsRunner(stdout)).toBe("▸ a.yaml\n  ERROR (file=a.yaml): failed:\n  - first\n  - second");
  });
});
