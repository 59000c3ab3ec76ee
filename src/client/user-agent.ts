import packageJson from "../../package.json" with { type: "json" };

/** `gitbook-openapi-action/<version>`: tells GitBook which client and release sent a request. */
export const DEFAULT_USER_AGENT = `${packageJson.name}/${packageJson.version}`;
