import type { Plugin } from "esbuild";

/** The esbuild plugin that replaces src/core/validation/validators.ts with validators generated now. */
export declare const validatorsPlugin: Plugin;
/** The standalone module of one OpenAPI version's validator: `validate` and `schema` as named exports. */
export declare function generateValidator(version: "2.0" | "3.0" | "3.1" | "3.2"): string;
