/**
 * Imported first by main.ts, so that it runs before the bundled libraries load: on an older Node.js
 * they fail with a TypeError that says nothing about the cause.
 */
const MINIMUM_MAJOR = 24;
const major = Number(process.versions.node.split(".")[0]);
if (major < MINIMUM_MAJOR) {
  process.stderr.write(
    `gitbook-openapi: error: Node.js ${MINIMUM_MAJOR} or later is required; this is Node.js ${process.versions.node}.\n`,
  );
  process.exit(1);
}
