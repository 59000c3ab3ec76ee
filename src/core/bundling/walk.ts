import { anyNode, childType, type NodeType } from "./openapi-types.ts";
import { isRecord } from "./pointer.ts";

export interface WalkVisitor {
  /**
   * A `$ref` object (its `$ref` is a string) at the path `tokens()` spells, at a position of type `type`.
   * `optional`: an `example` that is wholly a `$ref`, resolved only when it names something readable.
   */
  ref(
    node: Record<string, unknown>,
    tokens: () => readonly string[],
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
 * Without it nothing is kept per node: a shared node is visited wherever it appears (`parseSource` bounds
 * how far aliases expand), and a node that contains itself is not entered again.
 */
export function walkReferences(
  node: unknown,
  tokens: readonly string[],
  type: NodeType,
  walked: WeakMap<object, Set<NodeType>> | undefined,
  visitor: WalkVisitor,
): void {
  // Paths are kept as parent links and only spelled out as tokens where a reference is found.
  const stack: Frame[] = [{ value: node, type, parent: undefined, key: "" }];
  const children: Frame[] = [];
  const tokensOf = (frame: Frame) => {
    const keys: string[] = [];
    for (let at: Frame | undefined = frame; at?.parent; at = at.parent) keys.push(at.key);
    return tokens.concat(keys.reverse());
  };
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value, type: valueType } = frame;
    if (!isRecord(value)) continue;
    if (valueType.example && typeof value.$ref === "string" && Object.keys(value).length === 1) {
      visitor.ref(value, () => tokensOf(frame), value.$ref, anyNode, true);
      continue;
    }
    if (valueType.data) continue;
    if (walked) {
      const seen = walked.get(value);
      if (seen?.has(valueType)) continue;
      if (seen) seen.add(valueType);
      else walked.set(value, new Set([valueType]));
    }

    children.length = 0;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (typeof item === "object" && item !== null) {
          children.push({ value: item, type: valueType, parent: frame, key: String(index) });
        }
      }
    } else {
      const ref = value.$ref;
      const isRef = typeof ref === "string";
      if (isRef) visitor.ref(value, () => tokensOf(frame), ref, valueType, false);
      if (valueType.discriminator && isRecord(value.mapping) && !Array.isArray(value.mapping)) {
        visitor.mapping(value.mapping, [...tokensOf(frame), "mapping"]);
      }
      for (const key in value) {
        const child = value[key];
        if (typeof child === "object" && child !== null && Object.hasOwn(value, key)) {
          children.push({ value: child, type: childType(valueType, key), parent: frame, key });
        }
      }
    }
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index] as Frame;
      if (walked || !isAncestor(child.value, frame)) stack.push(child);
    }
  }
}

interface Frame {
  value: unknown;
  type: NodeType;
  parent: Frame | undefined;
  key: string;
}

function isAncestor(value: unknown, frame: Frame | undefined): boolean {
  for (let at = frame; at; at = at.parent) if (at.value === value) return true;
  return false;
}
