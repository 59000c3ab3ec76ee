/**
 * The rule families a user can turn down to warnings (`validation-warnings`). A module of its own, so
 * that reading the settings does not load the validator (src/core/validation/index.ts re-exports it).
 */
export const RULE_FAMILIES = ["schema", "refs", "info"] as const;
export type RuleFamily = (typeof RULE_FAMILIES)[number];
