import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const CLI = new URL("../../harness/emulator/cli.ts", import.meta.url).pathname;
const children: ChildProcess[] = [];
let tempDir: string | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  if (tempDir) await rm(tempDir, { recursive: true, force: true });
});

function runCli(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

async function waitForLine(read: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (let i = 0; i < 1000; i++) {
    const match = read().match(pattern);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no line matching ${pattern}; output: ${read()}`);
}

describe("emulator CLI", () => {
  it("serves the organizations of an --orgs file with the given token, then closes on SIGTERM", async () => {
    tempDir = await mkdtemp(join(tmpdir(), "emulator-cli-"));
    const orgsFile = join(tempDir, "orgs.json");
    await writeFile(orgsFile, JSON.stringify([{ id: "acme", title: "Acme", emailDomains: ["acme.test"] }]));
    const { child, output } = runCli(["--port", "0", "--token", "cli-token", "--orgs", orgsFile]);
    const [, baseUrl] = await waitForLine(
      output,
      /GitBook API emulator listening on (http:\/\/127\.0\.0\.1:\d+) \(organizations demo-org, acme, token cli-token\)/,
    );
    const response = await fetch(`${baseUrl}/v1/email-domains/acme.test/orgs`, {
      headers: { authorization: "Bearer cli-token" },
    });
    expect(response.status).toBe(200);
    expect(
      ((await response.json()) as { organizations: { id: string }[] }).organizations.map((o) => o.id),
    ).toEqual(["acme"]);
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  it("exits with 2 and names the flag when a flag is invalid", async () => {
    const { child, output } = runCli(["--drop-rate", "1.5"]);
    const [code] = await once(child, "close");
    expect(code).toBe(2);
    expect(output()).toContain('--drop-rate must be a number from 0 to 1 (a share of requests), got "1.5"');
  });

  it("prints the usage with --help", async () => {
    const { child, output } = runCli(["--help"]);
    const [code] = await once(child, "close");
    expect(code).toBe(0);
    expect(output()).toContain("--stuck <slug,slug>");
  });
});
