export { type BundledSpec, type BundleOptions, bundleSpec } from "./bundle.ts";
export { BundleError, BundleFailure } from "./errors.ts";
export { findExternalRefs } from "./external-refs.ts";
