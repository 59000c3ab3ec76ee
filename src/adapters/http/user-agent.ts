import packageJson from "../../../package.json" with { type: "json" };

/**
 * `gitbook-openapi-action/<version>`: tells GitBook that the Action sent a request, and which release
 * (the command line says `gitbook-openapi/<version>`, see src/hosts/cli/version.ts).
 */
export const DEFAULT_USER_AGENT = `gitbook-openapi-action/${packageJson.version}`;
