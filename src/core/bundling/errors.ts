/** A `$ref` that cannot go into the bundle. `file` is workspace-relative; `line`/`column` start at 1. */
export class BundleError extends Error {
  override name = "BundleError";
  readonly file: string;
  readonly ref: string;
  readonly line?: number;
  readonly column?: number;

  constructor(problem: string, where: { file: string; ref: string; line?: number; column?: number }) {
    const position = where.line === undefined ? "" : `:${where.line}:${where.column ?? 1}`;
    const subject = where.ref === "" ? "" : ` $ref "${where.ref}"`;
    super(`${where.file}${position}:${subject} ${problem}`);
    this.file = where.file;
    this.ref = where.ref;
    if (where.line !== undefined) this.line = where.line;
    if (where.column !== undefined) this.column = where.column;
  }
}

/** Every problem that keeps a spec from being bundled, in the order they were found (never empty). */
export class BundleFailure extends Error {
  override name = "BundleFailure";
  readonly problems: readonly BundleError[];

  constructor(problems: readonly BundleError[]) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    super(`Cannot bundle the spec (${count}):\n${problems.map((problem) => problem.message).join("\n")}`);
    this.problems = problems;
  }
}
