import { anyNode, childType, type NodeType } from "./openapi-types.ts";
import { isRecord } from "./pointer.ts";

export interface WalkVisitor {
  /**
   * A `$ref` object (its `$ref` is a string) at `tokens`, at a position of type `type`. `optional`: an
   * `example` that is wholly a `$ref`, resolved only when it names something readable.
   */
  ref(
    node: Record<string, unknown>,
    tokens: readonly string[],
    ref: string,
    type: NodeType,
    optional: boolean,
  ): void;
  /** A discriminator's `mapping` object at `tokens`. */
  mapping(mapping: Record<string, unknown>, tokens: readonly string[]): void;
}

/**
 * Visits, in document order, every `$ref` and discriminator mapping under `node` (at `tokens`, of type
 * `type`), without following references and without looking into literal data. `walked` remembers the
 * (node, type) pairs already visited, so a node shared by YAML aliases or walked again is visited once.
 */
export function walkReferences(
  node: unknown,
  tokens: readonly string[],
  type: NodeType,
  walked: WeakMap<object, Set<NodeType>>,
  visitor: WalkVisitor,
): void {
  const stack: [unknown, readonly string[], NodeType][] = [[node, tokens, type]];
  const children: [unknown, readonly string[], NodeType][] = [];
  while (stack.length > 0) {
    const [value, at, valueType] = stack.pop() as [unknown, readonly string[], NodeType];
    if (
      valueType.example &&
      isRecord(value) &&
      typeof value.$ref === "string" &&
      Object.keys(value).length === 1
    ) {
      visitor.ref(value, at, value.$ref, anyNode, true);
      continue;
    }
    if (valueType.data || !isRecord(value)) continue;
    const seen = walked.get(value);
    if (seen?.has(valueType)) continue;
    if (seen) seen.add(valueType);
    else walked.set(value, new Set([valueType]));

    children.length = 0;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        children.push([value[index], [...at, String(index)], valueType]);
      }
    } else {
      const ref = value.$ref;
      const isRef = typeof ref === "string";
      if (isRef) visitor.ref(value, at, ref, valueType, false);
      if (valueType.discriminator && isRecord(value.mapping) && !Array.isArray(value.mapping)) {
        visitor.mapping(value.mapping, [...at, "mapping"]);
      }
      for (const key of Object.keys(value)) {
        if (isRef && key === "$ref") continue;
        children.push([value[key], [...at, key], childType(valueType, key)]);
      }
    }
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as never);
  }
}
