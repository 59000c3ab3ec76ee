import type { Logger } from "../logger.ts";
import type { PreparedSpec } from "../prepare/prepared.ts";
import { bareMessage, locatedMessage } from "../prepare/problem-text.ts";
import type { SpecResult } from "../result.ts";
import type { SpecSource } from "../service/types.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";

/** The fields every result of `spec` starts from. */
export function resultOf(
  spec: PreparedSpec,
): Pick<SpecResult, "file" | "slug" | "specVersion" | "errors" | "warnings"> {
  return {
    file: spec.file,
    slug: spec.slug,
    ...(spec.specVersion !== undefined ? { specVersion: spec.specVersion } : {}),
    errors: [],
    ...(spec.warnings !== undefined ? { warnings: spec.warnings } : {}),
  };
}

/** No local step (syntax, validation, bundling) stopped the spec: it has the text or URL to upload. */
export function isReadyToUpload(spec: PreparedSpec): spec is PreparedSpec & { source: SpecSource } {
  return spec.problems.length === 0 && spec.source !== undefined;
}

/** The failed result of a spec that a local step stopped, with each problem annotated on its file. */
export function localFailure(spec: PreparedSpec, logger: Logger): SpecResult {
  // Once: a message that starts with its own place (an older form) loses it; the logger writes it.
  const problems = spec.problems.map((problem) => ({
    ...problem,
    message: bareMessage(problem.message, problem.location.file),
  }));
  const refusal = strictRefusal(spec);
  if (refusal) problems.unshift(refusal);
  for (const problem of problems) logger.error(problem.message, problem.location);
  return {
    ...resultOf(spec),
    status: "failed",
    errorCode: spec.problems[0]?.code ?? "INVALID_SPEC",
    // A result's errors are text for reports, one line each: the file's name is the repository's.
    errors: problems.map(({ message, location }) =>
      locatedMessage({ message, location: { ...location, file: escapeUntrusted(location.file) } }),
    ),
  };
}

/**
 * When only `strict: true` refuses the spec (every problem is a finding GitBook accepts), the line that
 * says so first, naming the setting: without it the spec would publish with warnings.
 */
function strictRefusal(spec: PreparedSpec): PreparedSpec["problems"][number] | undefined {
  if (spec.problems.length === 0 || !spec.problems.every((problem) => problem.strictOnly)) return undefined;
  const count = spec.problems.reduce((sum, problem) => sum + (problem.more ?? 1), 0);
  const noun = count === 1 ? "finding" : "findings";
  return {
    code: spec.problems[0]?.code ?? "INVALID_SPEC",
    message:
      `refused by \`strict: true\`: ${count} ${noun} of the official OpenAPI schema, which GitBook accepts; ` +
      `without \`strict\` ${count === 1 ? "it is a warning" : "they are warnings"} and the spec publishes.`,
    location: { file: spec.file },
  };
}
