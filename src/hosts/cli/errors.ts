/**
 * A usage or input error (exit code 2): a bad flag or value, or a missing setting. `setting` is what
 * the user can fix, as they would write it: a flag (`--organization`) or a variable (`GITBOOK_TOKEN`).
 */
export class UsageError extends Error {
  override name = "UsageError";
  readonly setting: string;

  constructor(setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.setting = setting;
  }
}
