export { type BundledSpec, type BundleOptions, bundleSpec, type ReferencedNode } from "./bundle.ts";
export { BundleError, BundleFailure } from "./errors.ts";
export { fileReferenceRule, findExternalRefs, mayReferenceOtherFiles } from "./external-refs.ts";
