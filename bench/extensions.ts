/**
 * What the checks of GitBook's extensions (src/core/shaping/extensions, docs/design/gitbook-extensions.md) cost
 * and say on real public specs, read from the workplace's bare clones (`/work/.mirror/<owner>+<name>/repo`,
 * or `--mirrors <folder>`); a missing one is left out. Per spec: its size, whether the quick look for the
 * table's keys let it through, the median time of the whole check as the pipeline runs it (parse of a
 * JSON text included), the median time of the walk alone, and the warnings (a correct spec has none).
 *
 *   npx node bench/extensions.ts [--mirrors /work/.mirror] [--runs 5]
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadBytes } from "../src/core/discovery/load.ts";
import {
  checkGitBookExtensions,
  gitBookExtensionWarnings,
  mayUseGitBookExtensions,
} from "../src/core/shaping/extensions/check.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const MIRRORS = option("--mirrors", "/work/.mirror");
const RUNS = Number(option("--runs", "5"));

/** [repository, commit, file]: the biggest files are absent from the clones, hence Stripe's older commits. */
const SPECS: [string, string, string][] = [
  ["stripe+openapi", "e0123a38b40c8d840b4c0469ac0ee1650b6bfea3", "openapi/spec3.json"],
  ["stripe+openapi", "63a674638635c68de26b9f3add13e58198f4df44", "openapi/spec3.yaml"],
  ["kubernetes-client+python", "HEAD", "kubernetes/swagger.json.unprocessed"],
  ["digitalocean+openapi", "HEAD", "specification/DigitalOcean-public.v2.yaml"],
  ["openai+openai-openapi", "HEAD", "openapi.json"],
  ["openai+openai-openapi", "HEAD", "openapi.yaml"],
  ["twilio+twilio-oai", "HEAD", "spec/json/twilio_api_v2010.json"],
  ["moby+moby", "HEAD", "api/swagger.yaml"],
  ["argoproj+argo-workflows", "HEAD", "api/openapi-spec/swagger.json"],
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function time(run: () => unknown): number {
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

console.log("| spec | MB | walked | check (ms) | walk alone (ms) | warnings |");
console.log("| --- | ---: | :---: | ---: | ---: | ---: |");
for (const [repo, commit, file] of SPECS) {
  const git = `${MIRRORS}/${repo}/repo`;
  if (!existsSync(git)) continue;
  let bytes: Buffer;
  try {
    bytes = execFileSync("git", ["-C", git, "show", `${commit}:${file}`], { maxBuffer: 1 << 30 });
  } catch {
    continue;
  }
  const format = file.endsWith(".yaml") ? "yaml" : "json";
  const names = { path: file, absolutePath: `/w/${file}`, realPath: `/w/${file}` };
  const discovered = {
    ...names,
    format,
    flavor: "openapi",
    declaredVersion: "",
    bytes: bytes.length,
  } as const;
  const outcome = loadBytes(bytes, discovered);
  if (!outcome.ok) continue;
  const spec = outcome.spec;
  const warnings = gitBookExtensionWarnings(spec);
  const document = format === "json" ? JSON.parse(spec.text) : spec.document;
  const walked = mayUseGitBookExtensions(spec.text);
  const check = time(() => gitBookExtensionWarnings(spec));
  const walk = time(() => checkGitBookExtensions(document));
  const size = (bytes.length / 1e6).toFixed(1);
  console.log(
    `| ${repo} ${commit.slice(0, 7)} ${file} | ${size} | ${walked ? "yes" : "no"} | ${check.toFixed(0)} | ${walk.toFixed(0)} | ${warnings.length} |`,
  );
}
