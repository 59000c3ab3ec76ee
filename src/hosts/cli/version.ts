import packageJson from "../../../package.json" with { type: "json" };

export const CLI_VERSION: string = packageJson.version;

/** `gitbook-openapi/<version>`: tells GitBook that the CLI sent a request, and which release. */
export const CLI_USER_AGENT = `gitbook-openapi/${CLI_VERSION}`;
