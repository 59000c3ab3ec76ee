// Builds the `gitbook-openapi` command (src/hosts/cli/main.ts) to dist/cli.js, one file like dist/index.js.
// ncc always writes `index.js` into its output folder, so the build goes to a temporary folder first;
// the licenses of what it bundles go to dist/cli-licenses.txt. Any other file ncc emits (an asset the
// bundle would load at run time) stops the build, since it would be left behind.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url);
const dist = new URL("dist/", root);
const ncc = createRequire(import.meta.url).resolve("@vercel/ncc/dist/ncc/cli.js");
const out = mkdtempSync(join(tmpdir(), "gitbook-openapi-cli-"));
try {
  execFileSync(
    process.execPath,
    [ncc, "build", "src/hosts/cli/main.ts", "-o", out, "--license", "licenses.txt", "--target", "es2022"],
    { cwd: root, stdio: "inherit" },
  );
  const emitted = readdirSync(out).sort();
  const expected = ["index.js", "licenses.txt", "package.json"];
  if (emitted.join() !== expected.join()) {
    throw new Error(`ncc emitted ${emitted.join(", ")}; expected only ${expected.join(", ")}`);
  }
  const code = readFileSync(join(out, "index.js"), "utf8");
  if (!code.startsWith("#!/usr/bin/env node\n")) throw new Error("the CLI bundle lost its #! line");
  writeFileSync(new URL("cli.js", dist), code);
  chmodSync(new URL("cli.js", dist), 0o755);
  copyFileSync(join(out, "licenses.txt"), new URL("cli-licenses.txt", dist));
} finally {
  rmSync(out, { recursive: true, force: true });
}
