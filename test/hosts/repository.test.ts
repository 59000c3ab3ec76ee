/**
 * The table of which variables name the repository on each CI (src/hosts/repository.ts): the name and
 * the identity of one repository as each CI writes it, and the order the table is read in.
 */
import { describe, expect, it } from "vitest";
import { runRepository } from "../../src/hosts/repository.ts";

const noOrigin = () => undefined;
const of = (env: Record<string, string>, origin: () => string | undefined = noOrigin) =>
  runRepository(env, "/builds/s", origin);

describe("runRepository", () => {
  it.each([
    [
      "GitHub Actions",
      {
        GITHUB_ACTIONS: "true",
        GITHUB_SERVER_URL: "https://github.com",
        GITHUB_REPOSITORY: "Acme/Widgets",
      },
    ],
    ["GitLab CI", { GITLAB_CI: "true", CI_PROJECT_URL: "https://github.com/acme/widgets" }],
    [
      "GitLab CI without CI_PROJECT_URL",
      { GITLAB_CI: "true", CI_SERVER_URL: "https://github.com", CI_PROJECT_PATH: "acme/widgets" },
    ],
    [
      "Azure Pipelines",
      { BUILD_REPOSITORY_URI: "https://github.com/acme/widgets", BUILD_REPOSITORY_NAME: "acme/widgets" },
    ],
    [
      "CircleCI",
      { CIRCLE_REPOSITORY_URL: "git@github.com:acme/widgets.git", CIRCLE_PROJECT_REPONAME: "widgets" },
    ],
    ["Jenkins", { GIT_URL: "https://ci-bot:secret@github.com/acme/widgets.git" }],
    ["Buildkite", { BUILDKITE_REPO: "git@github.com:acme/widgets.git" }],
  ])("%s: the same name and identity for github.com/acme/widgets", (_ci, env) => {
    const repository = of(env);
    expect(repository.identity).toBe("github.com/acme/widgets");
    expect(repository.name.toLowerCase()).toBe("widgets");
    expect(repository.guessedName).toBeUndefined();
  });

  it("reads an Azure Repos URL without the user name Azure puts in it, and names it by BUILD_REPOSITORY_NAME", () => {
    const repository = of({
      BUILD_REPOSITORY_URI: "https://fabrikam@dev.azure.com/fabrikam/Store/_git/Payments",
      BUILD_REPOSITORY_NAME: "Payments",
    });
    expect(repository).toMatchObject({
      identity: "dev.azure.com/fabrikam/store/_git/payments",
      name: "Payments",
    });
  });

  it("ignores GitHub's and GitLab's variables outside their CI, and takes the origin remote after the CI's", () => {
    const origin = () => "git@example.com:team/from-origin.git";
    expect(of({ GITHUB_REPOSITORY: "acme/widgets" }, origin)).toMatchObject({
      identity: "example.com/team/from-origin",
      name: "from-origin",
      source: "the origin remote",
    });
    expect(of({ GIT_URL: "https://example.com/team/from-ci.git" }, origin).name).toBe("from-ci");
  });

  it("takes the CI's name of the repository when its URL is missing, and the identity from origin", () => {
    const gitlab = { GITLAB_CI: "true", CI_PROJECT_PATH: "group/sub/widgets" };
    expect(of(gitlab)).toMatchObject({ name: "widgets", identity: undefined });
    expect(of(gitlab, () => "git@gitlab.example.com:group/sub/widgets.git")).toMatchObject({
      name: "widgets",
      identity: "gitlab.example.com/group/sub/widgets",
    });
  });

  it("falls back to the folder's name, saying why, when nothing names the repository", () => {
    // Azure Pipelines on TFVC: the URI is the collection's, shared by every project in it.
    const repository = of({
      BUILD_REPOSITORY_PROVIDER: "TfsVersionControl",
      BUILD_REPOSITORY_URI: "https://dev.azure.com/fabrikam/",
    });
    expect(repository.identity).toBeUndefined();
    expect(repository.name).toBe("s");
    expect(repository.guessedName).toContain("named after the checkout folder, 's'");
  });
});
