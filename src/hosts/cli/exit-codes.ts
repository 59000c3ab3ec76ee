/** The CLI's exit codes; documented in `--help`, docs/cli.md and docs/troubleshooting.md. */
export const ExitCode = {
  /** Everything succeeded. */
  ok: 0,
  /**
   * One or more specs failed or timed out (sync), a file with a problem that would stop its upload
   * (validate), a breaking change with `--fail-on-breaking` (sync, diff), the operation failed, or a
   * write to stdout or an output file failed.
   */
  failed: 1,
  /** A usage or input error: a bad flag, a bad value, a missing setting. Nothing was changed. */
  usage: 2,
  /** The service refused the token or the organization (401 or 403), or knows no such organization (404). */
  refused: 3,
  /**
   * `sync` stopped by Ctrl-C (SIGINT, 130) or SIGTERM (143), as a shell reports a process ended by the
   * signal: the specs under way got a short grace, the others did not start; the partial report was
   * printed.
   */
  interrupted: 130,
  terminated: 143,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODES_HELP = `Exit codes:
  0  success
  1  one or more specs failed or timed out (sync), a breaking change with --fail-on-breaking
     (sync, diff), the operation failed, or a write to stdout or an output file failed
  2  usage or input error (the message names the flag or variable)
  3  the service refused the token or the organization (401/403), or knows no such organization
  130  interrupted (SIGINT, Ctrl-C); in sync: no other spec started, those under way got 2 s (else
       cancelled), and the partial report was printed (a second signal exits at once)
  143  the same, stopped by SIGTERM`;

/** The exit codes of `diff`, which reads files (two, or the workspace's and a git ref's) and sends nothing. */
export const DIFF_EXIT_CODES_HELP = `Exit codes:
  0  compared (with --fail-on-breaking: and no breaking change was found)
  1  --fail-on-breaking and a breaking change was found (with --base: or a spec removed since the ref;
     with --fail-on-unreviewed: or a spec not reviewed), or the comparison could not finish within
     its budget (memory, time)
  2  usage or input error: a file that cannot be read, is not an OpenAPI document or cannot be bundled
     (the message names it), a --base ref this checkout does not have (fetch it), or a bad
     GITBOOK_REVIEW_* value`;
