import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRunnerCommands } from "../../harness/runner/runner-commands.ts";
import { guardedLogger, MemoryLogger } from "../../src/core/logger.ts";
import { defuseCommands, defuseSingleLine, escapeUntrusted } from "../../src/core/text/log-protocol.ts";
import { createRedactor, REDACTED } from "../../src/core/text/redact.ts";

/** Pieces an attacker would put in a file name or a service's answer. */
const HOSTILE = [
  "\n::warning::PWNED",
  "\r::notice file=a.yaml::PWNED",
  "\r\n  ::error::PWNED",
  "::add-mask::PWNED",
  "::stop-commands::PWNED",
  "\t\u00a0\u0085::WARNING::PWNED",
  "\ufeff::group::PWNED",
  "x##[warning]PWNED",
  "###[error]PWNED",
  "%0A::warning::PWNED",
  "\u2028::warning::PWNED",
];
const hostileText = fc.array(
  fc.oneof(
    fc.constantFrom(...HOSTILE),
    fc.string({ unit: fc.constantFrom(..."::##[]% \r\n\tAWxy-".split("")), maxLength: 12 }),
    fc.string({ unit: "binary", maxLength: 12 }),
  ),
  { maxLength: 6 },
);
const ownPrefix = fc.constantFrom("", " ", "File ", "Plan (preview, 1 spec): ", "::");

describe("escapeUntrusted", () => {
  it("keeps a piece on one line and makes it start no command", () => {
    expect(escapeUntrusted("a\nb\r%c")).toBe("a%0Ab%0D%25c");
    expect(escapeUntrusted("::warning::x")).toBe("%3A:warning::x");
    expect(escapeUntrusted("  ::x")).toBe("  %3A:x");
    expect(escapeUntrusted("a##[error]b")).toBe("a#%23[error]b");
    expect(escapeUntrusted("\u001b[31mred\u007f\u2028")).toBe("%1B[31mred%7F%E2%80%A8");
    expect(escapeUntrusted("specs/payments v2.yaml")).toBe("specs/payments v2.yaml");
  });

  it("for any text, after any text of ours, gives a line the runner reads as no command", () => {
    fc.assert(
      fc.property(ownPrefix, hostileText, (prefix, parts) => {
        const escaped = escapeUntrusted(parts.join(""));
        expect(escaped).not.toMatch(/[\r\n\u2028\u2029\u0085]/);
        // A prefix of ours that ends the line's command part ("::") is ours to worry about, not the piece's.
        const line = prefix === "::" ? escaped : `${prefix}${escaped}`;
        expect(parseRunnerCommands(line)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads back unambiguously: percent-decoding gives the original text", () => {
    fc.assert(
      fc.property(hostileText, (parts) => {
        const text = parts.join("").replace(/[\ud800-\udfff]/g, "?");
        expect(decodeURIComponent(escapeUntrusted(text))).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("defuseCommands", () => {
  it("keeps the lines of a message and changes only those the runner would take as commands", () => {
    const message = "2 of 3 specs failed:\n- a.yaml\n::warning::PWNED\r  ::error::PWNED\n- ##[notice]PWNED";
    expect(defuseCommands(message)).toBe(
      "2 of 3 specs failed:\n- a.yaml\n%3A:warning::PWNED\n  %3A:error::PWNED\n- #%23[notice]PWNED",
    );
    expect(defuseCommands("Plan: a → b\nline two")).toBe("Plan: a → b\nline two");
  });

  it("for any text, writes lines of which the runner reads none as a command", () => {
    fc.assert(
      fc.property(hostileText, (parts) => {
        const text = parts.join("");
        const defused = defuseCommands(text);
        expect(parseRunnerCommands(defused)).toEqual([]);
        const lines = (t: string) => t.split(/\r\n|\r|\n/).length;
        expect(lines(defused)).toBe(lines(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps group titles and file properties on one line", () => {
    expect(defuseSingleLine("a.yaml\n::warning::PWNED")).toBe("a.yaml%0A::warning::PWNED");
    expect(defuseSingleLine("::group::x")).toBe("%3A:group::x");
  });
});

describe("guardedLogger", () => {
  const token = "gb_api_Zq8xYp3LmN7vR2tK9wB4cD6fH1jS5uE0";

  it("redacts and defuses every message, group title and annotation file it passes on", async () => {
    const memory = new MemoryLogger();
    const logger = guardedLogger(memory, createRedactor([token]));
    logger.info(`Created spec (id x\n::warning::PWNED ${token})`);
    logger.debug(`##[error]${token.slice(0, 10)}`);
    logger.warning(`said: ${token.slice(4, 30)}`, { file: `evil\n::error::${token}.yaml`, line: 3 });
    logger.group(`spec\r::notice::PWNED ${token}`, () => logger.error("inside"));

    expect(memory.entries).toEqual([
      { level: "info", message: `Created spec (id x\n%3A:warning::PWNED ${REDACTED})` },
      { level: "debug", message: `#%23[error]${REDACTED}` },
      {
        level: "warning",
        message: `said: ${REDACTED}`,
        location: { file: `evil%0A::error::${REDACTED}.yaml`, line: 3 },
      },
      { level: "group", message: `spec%0D::notice::PWNED ${REDACTED}` },
      { level: "error", message: "inside" },
      { level: "endgroup", message: `spec%0D::notice::PWNED ${REDACTED}` },
    ]);
  });
});

describe("the test harness reads commands as the runner does", () => {
  it("applies TrimStart, case-insensitive names, the ##[ form, line breaks at \\r, and stop-commands", () => {
    const stdout = [
      "  ::warning file=a%2Cb.yaml,line=3::one%0Atwo",
      "::ERROR::upper",
      "text before ##[notice]old form",
      "plain ::warning::not at start",
      "::unknown::ignored",
      "a\r::debug::after a carriage return",
      "::stop-commands::tok",
      "::warning::paused",
      "::tok::",
      "::notice::resumed",
    ].join("\n");
    expect(
      parseRunnerCommands(stdout).map(({ command, properties, data, form }) => ({
        command,
        properties,
        data,
        form,
      })),
    ).toEqual([
      { command: "warning", properties: { file: "a,b.yaml", line: "3" }, data: "one\ntwo", form: "v2" },
      { command: "error", properties: {}, data: "upper", form: "v2" },
      { command: "notice", properties: {}, data: "old form", form: "v1" },
      { command: "debug", properties: {}, data: "after a carriage return", form: "v2" },
      { command: "stop-commands", properties: {}, data: "tok", form: "v2" },
      { command: "tok", properties: {}, data: "", form: "v2" },
      { command: "notice", properties: {}, data: "resumed", form: "v2" },
    ]);
  });
});
