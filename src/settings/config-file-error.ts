/**
 * A problem in the configuration file (`gitbook-openapi.yaml`), its message starting with the file's
 * `path:line:col`. A module of its own, so that the command line can recognise it without loading the
 * YAML parser (src/settings/config-file.ts re-exports it).
 */
export class ConfigFileError extends Error {
  override readonly name = "ConfigFileError";
}
