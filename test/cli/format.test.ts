import { describe, expect, it } from "vitest";
import { renderFields, renderTable } from "../../src/hosts/cli/format.ts";
import { printable } from "../../src/hosts/cli/output.ts";

describe("renderTable", () => {
  const rows = [
    ["pets", "complete", "https://app.gitbook.com/o/demo-org/openapi/pets-and-more-pets"],
    ["orders", undefined, "https://app.gitbook.com/o/demo-org/openapi/orders"],
  ];

  it("aligns the columns under upper-case headers and shows absent cells as '-'", () => {
    expect(renderTable(["slug", "state", "url"], rows)).toBe(
      [
        "SLUG    STATE     URL",
        "pets    complete  https://app.gitbook.com/o/demo-org/openapi/pets-and-more-pets",
        "orders  -         https://app.gitbook.com/o/demo-org/openapi/orders",
        "",
      ].join("\n"),
    );
  });

  it("cuts the widest column with … to fit a terminal", () => {
    const lines = renderTable(["slug", "state", "url"], rows, 50).trimEnd().split("\n");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(50);
    expect(lines[1]).toBe("pets    complete  https://app.gitbook.com/o/demo-…");
  });

  it("shows control characters instead of sending them to the terminal", () => {
    const table = renderTable(["title"], [["\u001b[2Jcleared\r\nline"]]);
    expect(table).toBe("TITLE\n\\u001b[2Jcleared\\u000d\\u000aline\n");
    expect(printable("a\nb\u009b", true)).toBe("a\nb\\u009b");
  });

  it("shows the invisible characters that reorder or hide text", () => {
    // A right-to-left override would show `evil.yaml` written as `\u202elmay.live`; a zero-width space hides.
    expect(printable("\u202elmay.live\u200b\u2028\ufeff")).toBe("\\u202elmay.live\\u200b\\u2028\\ufeff");
    expect(printable("café → ok")).toBe("café → ok");
  });
});

describe("renderFields", () => {
  it("aligns the values and leaves out absent ones", () => {
    expect(
      renderFields([
        ["Slug", "pets"],
        ["Error code", undefined],
        ["Last version", "v1"],
      ]),
    ).toBe("Slug:          pets\nLast version:  v1\n");
  });
});
