/** The settings a core message may point the user to. */
export type Setting =
  | "organization"
  | "organization-domain"
  | "files"
  | "slugs"
  | "slug-prefix"
  | "timeout"
  | "prune-limit"
  | "cache-file";

/**
 * How the host names a setting in messages, so that each user reads the name they typed: the action
 * says "input 'slug-prefix'", the command line "--slug-prefix".
 */
export type SettingNames = (setting: Setting) => string;
