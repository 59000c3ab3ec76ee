import type { Scalar } from "yaml";
import { yamlPackage } from "./yaml-package.ts";

/** One key of a path found in a parsed YAML node: a mapping's pair (with its key) or a sequence's item. */
export interface YamlStep {
  /** The mapping key, when the step went through a mapping. */
  key?: Scalar;
  /** The value reached: the pair's value or the item. */
  node: unknown;
}

/**
 * The steps of `tokens` that exist from `root` (a `yaml` document's contents), stopping at the first
 * that does not. A mapping key is compared as text (a key written `200` is the number 200); a
 * sequence is stepped into by a decimal token.
 */
export function yamlSteps(root: unknown, tokens: readonly string[]): YamlStep[] {
  const { isMap, isScalar, isSeq } = yamlPackage();
  const steps: YamlStep[] = [];
  let node = root;
  for (const token of tokens) {
    if (isSeq(node) && /^\d+$/.test(token)) {
      const item: unknown = node.items[Number(token)];
      if (item === undefined) break;
      steps.push({ node: item });
      node = item;
      continue;
    }
    if (!isMap(node)) break;
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === token);
    if (pair === undefined) break;
    steps.push({ key: pair.key as Scalar, node: pair.value });
    node = pair.value;
  }
  return steps;
}
