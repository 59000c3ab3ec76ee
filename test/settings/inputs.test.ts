import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { InputError } from "../../src/core/plan/input-error.ts";
import { readConfig, SETTING_INPUTS } from "../../src/settings/inputs.ts";

function reader(inputs: Record<string, string>) {
  return (name: string) => inputs[name] ?? "";
}

const minimal = { token: "secret-token", organization: "demo-org" };

describe("readConfig", () => {
  it("applies the documented defaults", () => {
    const config = readConfig(reader(minimal));
    expect(config).toMatchObject({
      token: "secret-token",
      organization: { kind: "id", id: "demo-org" },
      files: undefined,
      slugPrefix: undefined,
      source: "text",
      mode: "auto",
      wait: true,
      timeoutSeconds: 600,
      concurrency: 4,
      apiUrl: "https://api.gitbook.com",
      comment: true,
      commentKey: "default",
    });
    expect(config.slugMapping.size).toBe(0);
  });

  it("reads lists, mappings, booleans and numbers", () => {
    const config = readConfig(
      reader({
        ...minimal,
        files: "specs/**/*.yaml\n\n# generated\n!specs/internal/**\n",
        slugs: "specs/a.yaml: alpha\n",
        wait: "false",
        timeout: "30",
        concurrency: "16",
        "api-url": "http://127.0.0.1:4010/v1/",
        mode: "Check",
      }),
    );
    expect(config.files).toEqual(["specs/**/*.yaml", "!specs/internal/**"]);
    expect([...config.slugMapping]).toEqual([["specs/a.yaml", "alpha"]]);
    expect(config).toMatchObject({ wait: false, timeoutSeconds: 30, concurrency: 16, mode: "check" });
    expect(config.apiUrl).toBe("http://127.0.0.1:4010");
  });

  it.each([
    [{ mode: "deploy" }, "mode", "'auto', 'publish', 'preview', 'check'"],
    [{ timeout: "ten" }, "timeout", "not a whole number"],
    [{ timeout: "0" }, "timeout", "out of range"],
    [{ concurrency: "0" }, "concurrency", "out of range"],
    [{ wait: "maybe" }, "wait", "not a boolean"],
    [{ source: "git" }, "source", "'text', 'url'"],
    [{ "organization-domain": "example.com" }, "organization", "both set"],
    [{ organization: "" }, "organization", "is required"],
    [{ token: "" }, "token", "is required to publish"],
    [{ "api-url": "ftp://x" }, "api-url", "http(s)"],
    [{ "api-url": "https://user:pw@api.gitbook.com" }, "api-url", "credentials"],
    [{ "comment-key": "a b" }, "comment-key", "letters, digits"],
  ])("rejects %o, naming the input '%s'", (override, input, fragment) => {
    let thrown: unknown;
    try {
      readConfig(reader({ ...minimal, ...override }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputError);
    expect((thrown as InputError).input).toBe(input);
    expect((thrown as Error).message).toContain(`Input '${input}'`);
    expect((thrown as Error).message).toContain(fragment);
  });

  it("rejects a bad explicit slug, naming the slugs input and the line", () => {
    expect(() => readConfig(reader({ ...minimal, slugs: "a.yaml: ok\nb.yaml: Not_Valid" }))).toThrow(
      /`slugs` input, line 2.*not valid/,
    );
  });

  it("needs neither token nor organization in check mode", () => {
    const config = readConfig(reader({ mode: "check" }));
    expect(config.token).toBeUndefined();
    expect(config.organization).toBeUndefined();
  });

  it("lets a run without secrets go on without a token when asked to", () => {
    const config = readConfig(reader({ mode: "auto", organization: "demo-org" }), { tokenOptional: true });
    expect(config.token).toBeUndefined();
    expect(() => readConfig(reader({ mode: "deploy" }), { tokenOptional: true })).toThrow(/Input 'mode'/);
  });

  it("accepts an organization email domain", () => {
    const config = readConfig(reader({ token: "t", "organization-domain": "@Example.COM" }));
    expect(config.organization).toEqual({ kind: "email-domain", domain: "example.com" });
  });
});

describe("a setting that holds a token (issue 16, item 12)", () => {
  const TOKEN = "gb_api_k3v9q2x7m4p8w1z6r5t0y3u2i9o8";
  const GITHUB_TOKEN = "ghs_q7we2rt9yu4io1pa6sd3fg8hj5kl0zx2cv7b";

  /** A value of each setting that would be valid but for the secret (or a piece of it) it holds. */
  function holding(secret: string): Record<string, string> {
    const piece = secret.slice(7, 15);
    return {
      organization: `org-${piece}`,
      "organization-domain": `${piece}.example.com`,
      files: `specs/${piece}/*.yaml`,
      exclude: `drafts/${piece}/**`,
      config: `ci/${piece}.yaml`,
      slugs: `specs/a.yaml: ${piece}-api`,
      "slug-prefix": `pay-${piece}`,
      force: secret,
      "cache-file": `.cache/${piece}.json`,
      prune: secret,
      "prune-limit": secret,
      "fail-on-breaking": secret,
      "fail-on-unreviewed": secret,
      "breaking-allowed": `GET /${piece}`,
      strict: secret,
      source: secret,
      mode: secret,
      wait: secret,
      timeout: secret,
      concurrency: secret,
      "review-heap-mb": secret,
      "review-timeout-ms": secret,
      "api-url": `https://${piece}.example.com`,
      comment: secret,
      "comment-key": secret,
    };
  }

  it("covers every input of action.yml but the two secrets", () => {
    const action = parse(readFileSync(new URL("../../action.yml", import.meta.url), "utf8")) as {
      inputs: Record<string, unknown>;
    };
    const settings = Object.keys(action.inputs).filter((name) => name !== "token" && name !== "github-token");
    expect([...SETTING_INPUTS].sort()).toEqual(settings.sort());
    expect(Object.keys(holding(TOKEN)).sort()).toEqual(settings.sort());
  });

  it("refuses it by the setting's name, never quoting the value", () => {
    for (const [secretInput, secret] of [
      ["token", TOKEN],
      ["github-token", GITHUB_TOKEN],
    ] as const) {
      for (const [input, value] of Object.entries(holding(secret))) {
        let thrown: unknown;
        try {
          readConfig(reader({ ...minimal, [secretInput]: secret, [input]: value }));
        } catch (error) {
          thrown = error;
        }
        expect(thrown, `${input} holding ${secretInput}`).toBeInstanceOf(InputError);
        expect((thrown as InputError).input).toBe(input);
        const message = (thrown as Error).message;
        expect(message).toContain(`Input '${input}': holds the value of the '${secretInput}' input`);
        expect(message).not.toContain(secret.slice(7, 15));
      }
    }
  });

  it("matches the token in either case, and lets a setting with a shorter piece through", () => {
    const piece = TOKEN.slice(7, 15);
    expect(() =>
      readConfig(reader({ ...minimal, token: TOKEN, "comment-key": piece.toUpperCase() })),
    ).toThrow(/Input 'comment-key': holds the value of the 'token' input/);
    const config = readConfig(reader({ ...minimal, token: TOKEN, "comment-key": piece.slice(0, 7) }));
    expect(config.commentKey).toBe(piece.slice(0, 7));
  });
});
