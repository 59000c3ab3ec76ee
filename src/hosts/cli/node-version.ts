/**
 * Imported first by main.ts, so that it runs before the bundled libraries load: on an older Node.js
 * they fail with a TypeError that says nothing about the cause. 22.19 is the oldest release undici 8
 * (bundled) supports; package.json's `engines` says the same.
 */
const MINIMUM = [22, 19] as const;
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1])) {
  process.stderr.write(
    `gitbook-openapi: error: Node.js ${MINIMUM.join(".")} or later is required; this is Node.js ${process.versions.node}.\n`,
  );
  process.exit(1);
}
