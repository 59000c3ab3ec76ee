import { describe, expect, it } from "vitest";
import type { RunContext } from "../../src/adapters/github/context.ts";
import { rawFileUrlBuilder } from "../../src/adapters/github/source-url.ts";
import { OrganizationLookupError, resolveOrganizationId } from "../../src/core/run/organization.ts";
import type { Organization } from "../../src/core/service/types.ts";
import { resolveMode } from "../../src/hosts/action/mode.ts";

const push: RunContext = {
  eventName: "push",
  repository: { owner: "acme", name: "widgets", fullName: "acme/widgets" },
  sha: "abc123",
  serverUrl: "https://ghe.example.com",
  apiUrl: "https://ghe.example.com/api/v3",
  workspace: "/w",
  repositoryVisibility: "public",
};
const pr = (action: string): RunContext => ({
  ...push,
  eventName: "pull_request",
  pullRequest: { number: 7, action, isFork: false, headSha: "head456", baseSha: "" },
});

describe("resolveMode", () => {
  it("previews pull requests, cleans up closed ones and publishes everything else in auto mode", () => {
    expect(resolveMode("auto", push)).toBe("publish");
    expect(resolveMode("auto", pr("synchronize"))).toBe("preview");
    expect(resolveMode("auto", pr("closed"))).toBe("cleanup");
    expect(resolveMode("publish", pr("opened"))).toBe("publish");
    expect(resolveMode("check", pr("closed"))).toBe("check");
  });

  it("refuses preview outside a pull request, naming the input", () => {
    expect(() => resolveMode("preview", push)).toThrow(/Input 'mode': 'preview' needs a pull_request/);
  });
});

describe("resolveOrganizationId", () => {
  const org = (id: string, title: string) =>
    ({ object: "organization", id, title, urls: { location: "", app: "" } }) as Organization;
  const directory = (orgs: Organization[]) => ({ listOrganizationsByEmailDomain: async () => orgs });

  it("uses an id as is and resolves a domain with exactly one organization", async () => {
    expect(await resolveOrganizationId({ kind: "id", id: "o1" }, directory([]))).toBe("o1");
    expect(
      await resolveOrganizationId(
        { kind: "email-domain", domain: "example.com" },
        directory([org("o2", "Two")]),
      ),
    ).toBe("o2");
  });

  it("lists the candidates when a domain is ambiguous, and says when it matches none", async () => {
    const ambiguous = resolveOrganizationId(
      { kind: "email-domain", domain: "example.com" },
      directory([org("a", "Alpha"), org("b", "Beta")]),
    );
    await expect(ambiguous).rejects.toThrow(OrganizationLookupError);
    await expect(ambiguous).rejects.toThrow(/matches 2 organizations: a \(Alpha\), b \(Beta\)/);
    await expect(
      resolveOrganizationId({ kind: "email-domain", domain: "none.test" }, directory([])),
    ).rejects.toThrow(/no organization the token can see/);
  });
});

describe("rawFileUrlBuilder", () => {
  it("points at the raw file of this commit on the run's own GitHub server", () => {
    expect(rawFileUrlBuilder(push)("specs/My API.yaml")).toBe(
      "https://ghe.example.com/acme/widgets/raw/abc123/specs/My%20API.yaml",
    );
    expect(rawFileUrlBuilder(pr("opened"))("a.yaml")).toBe(
      "https://ghe.example.com/acme/widgets/raw/head456/a.yaml",
    );
  });
});
