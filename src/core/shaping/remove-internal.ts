/**
 * `remove-internal`: takes every object marked `x-internal` out of a bundled OpenAPI document (2.0 to
 * 3.2), with whatever names or needs it, so that the result is a whole document. The document is walked
 * as OpenAPI ({@link fieldsFor}), never by key names; linear, without recursion, in place. What counts as
 * marked and the four steps: docs/design/overlays.md, "What counts as marked internal" and "remove-internal".
 */
import { isRecord, pointerFromTokens, pointerTokens } from "../bundling/pointer.ts";

const INTERNAL = "x-internal";

export interface RemovalSummary {
  /** Objects marked internal that were removed (those inside another removed one not counted). */
  marked: number;
  /** Operations removed, marked or not. */
  operations: number;
  /** Components no longer reached, removed. */
  components: number;
  /** Declared tags removed. */
  tags: number;
  /** `x-internal` values other than `true` and `false`, at their JSON pointers (at most 20). */
  unusual: Array<{ pointer: string; value: unknown; marked: boolean }>;
  /** How many such values there are in all. */
  unusualCount: number;
}

/** A marked object that a document cannot go without; `pointer` is where it is. */
export class InternalRemovalError extends Error {
  override readonly name = "InternalRemovalError";
  readonly pointer: string;
  constructor(message: string, pointer: string) {
    super(message);
    this.pointer = pointer;
  }
}

type Version = 2 | 30 | 31 | 32;

/**
 * How a node leaves its holder: `entry` (of a map or list), `optional` (a field the holder does
 * without), `holder` (a required field: the holder goes instead), `fatal` (cannot go).
 */
type Mode = "entry" | "optional" | "holder" | "fatal";

/**
 * What a field holds: an object of the specification (`Schema`), a map of them (`Schema{}`), a list of
 * them (`Schema[]`), or either (`Schema|[]`, JSON Schema's older `items`). Then how it leaves its holder.
 */
type Field = readonly [shape: string, mode: Mode];

const SCHEMA_FIELDS: Record<string, Field> = {
  allOf: ["Schema[]", "holder"],
  anyOf: ["Schema[]", "holder"],
  oneOf: ["Schema[]", "holder"],
  prefixItems: ["Schema[]", "holder"],
  not: ["Schema", "holder"],
  items: ["Schema|[]", "holder"],
  additionalItems: ["Schema", "holder"],
  contains: ["Schema", "holder"],
  additionalProperties: ["Schema", "holder"],
  unevaluatedProperties: ["Schema", "holder"],
  unevaluatedItems: ["Schema", "holder"],
  propertyNames: ["Schema", "holder"],
  if: ["Schema", "holder"],
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword
  then: ["Schema", "holder"],
  else: ["Schema", "holder"],
  contentSchema: ["Schema", "holder"],
  properties: ["Schema{}", "optional"],
  patternProperties: ["Schema{}", "optional"],
  dependentSchemas: ["Schema{}", "optional"],
  $defs: ["Schema{}", "optional"],
  definitions: ["Schema{}", "optional"],
  discriminator: ["Discriminator", "optional"],
  xml: ["Xml", "optional"],
  externalDocs: ["ExternalDocs", "optional"],
};

const METHODS_2 = ["get", "put", "post", "delete", "options", "head", "patch"];
const METHODS_3 = [...METHODS_2, "trace"];

const optional = (shape: string): Field => [shape, "optional"];
const holder = (shape: string): Field => [shape, "holder"];

function operationFields(methods: readonly string[]): Record<string, Field> {
  return Object.fromEntries(methods.map((method) => [method, optional("Operation")]));
}

/** The objects of the specification, per version: their fields that hold other objects. */
function fieldsFor(version: Version): Record<string, Record<string, Field>> {
  const root = {
    info: ["Info", "fatal"] as Field,
    paths: optional("Paths"),
    security: optional("SecurityRequirement[]"),
    tags: optional("Tag[]"),
    externalDocs: optional("ExternalDocs"),
  };
  const operation = {
    parameters: optional("Parameter[]"),
    responses: holder("Responses"),
    security: optional("SecurityRequirement[]"),
    externalDocs: optional("ExternalDocs"),
  };
  const shared = {
    Info: { contact: optional("Contact"), license: optional("License") },
    Tag: { externalDocs: optional("ExternalDocs") },
    Schema: SCHEMA_FIELDS,
  };
  if (version === 2) {
    return {
      ...shared,
      Root: {
        ...root,
        definitions: optional("Schema{}"),
        parameters: optional("Parameter{}"),
        responses: optional("Response{}"),
        securityDefinitions: optional("SecurityScheme{}"),
      },
      PathItem: { ...operationFields(METHODS_2), parameters: optional("Parameter[]") },
      Operation: operation,
      Parameter: { schema: holder("Schema"), items: holder("Items") },
      Items: { items: holder("Items") },
      Response: { schema: holder("Schema"), headers: optional("Header{}") },
      Header: { items: holder("Items") },
    };
  }
  const methods = version === 32 ? [...METHODS_3, "query"] : METHODS_3;
  const content = holder("MediaType{}");
  const examples = optional("Example{}");
  const encodings = {
    encoding: optional("Encoding{}"),
    prefixEncoding: optional("Encoding[]"),
    itemEncoding: optional("Encoding"),
  };
  return {
    ...shared,
    Root: {
      ...root,
      servers: optional("Server[]"),
      webhooks: optional("PathItem{}"),
      components: optional("Components"),
    },
    Server: { variables: optional("ServerVariable{}") },
    PathItem: {
      ...operationFields(methods),
      ...(version === 32 ? { additionalOperations: optional("Operation{}") } : {}),
      servers: optional("Server[]"),
      parameters: optional("Parameter[]"),
    },
    Operation: {
      ...operation,
      requestBody: holder("RequestBody"),
      callbacks: optional("Callback{}"),
      servers: optional("Server[]"),
    },
    Parameter: { schema: holder("Schema"), content, examples },
    Header: { schema: holder("Schema"), content, examples },
    RequestBody: { content },
    MediaType: { schema: holder("Schema"), itemSchema: holder("Schema"), examples, ...encodings },
    Encoding: { headers: optional("Header{}"), ...encodings },
    // A response without content is a response without a body; a request body or parameter needs one.
    Response: { headers: optional("Header{}"), content: optional("MediaType{}"), links: optional("Link{}") },
    Link: { server: optional("Server") },
    Components: Object.fromEntries(
      [
        ["schemas", "Schema"],
        ["responses", "Response"],
        ["parameters", "Parameter"],
        ["examples", "Example"],
        ["requestBodies", "RequestBody"],
        ["headers", "Header"],
        ["securitySchemes", "SecurityScheme"],
        ["links", "Link"],
        ["callbacks", "Callback"],
        ["pathItems", "PathItem"],
        ["mediaTypes", "MediaType"],
      ].map(([group, kind]) => [group, optional(`${kind}{}`)]),
    ),
    SecurityScheme: { flows: holder("OAuthFlows") },
    OAuthFlows: Object.fromEntries(
      ["implicit", "password", "clientCredentials", "authorizationCode", "deviceAuthorization"].map(
        (flow) => [flow, optional("OAuthFlow")],
      ),
    ),
  };
}

/** Objects of the specification whose other keys (not `x-`) are names of entries: their kind. */
const ENTRIES_OF: Record<string, string> = { Paths: "PathItem", Responses: "Response", Callback: "PathItem" };

/** One object or list of the document, as the walk found it. */
interface Frame {
  node: Record<string, unknown> | unknown[];
  parent: Frame | undefined;
  key: string | number;
  /** `Schema` for an object of the specification; `Schema{}` for a map, `Schema[]` for a list. */
  shape: string;
  mode: Mode;
  dead: boolean;
  children: Frame[];
  /** Entries not removed (maps, lists, Paths/Responses/Callback); operations not removed (path items). */
  live: number;
  /** Had entries (or operations) before: an emptied one is acted on, one that never had any is not. */
  had: number;
  /** The component entry this frame lies in, if any. */
  component: Frame | undefined;
  /** What goes when this frame, or anything under it, is removed. */
  dependents?: Frame[];
}

interface Index {
  version: Version;
  root: Frame;
  frames: Frame[];
  byNode: Map<object, Frame>;
  marks: Frame[];
  operations: Frame[];
  links: Frame[];
  discriminators: Frame[];
  requirements: Frame[];
  refs: Array<[holder: Frame, ref: string]>;
  unusual: RemovalSummary["unusual"];
  unusualCount: number;
}

function versionOf(document: Record<string, unknown>): Version {
  if (document.swagger !== undefined) return 2;
  const minor = /^3\.(\d+)/.exec(String(document.openapi ?? ""))?.[1];
  if (minor === "0") return 30;
  if (minor === "1") return 31;
  return minor === undefined ? 30 : 32;
}

function isMarked(value: unknown): boolean {
  return Boolean(value);
}

const MAX_UNUSUAL = 20;

/**
 * Walks the document as OpenAPI, iteratively (depth costs heap, not stack), into frames: every object,
 * map and list of the specification, with what the removal needs (marks, operations, links, references).
 */
function indexDocument(document: Record<string, unknown>): Index {
  const version = versionOf(document);
  const fields = fieldsFor(version);
  const root: Frame = {
    node: document,
    parent: undefined,
    key: "",
    shape: "Root",
    mode: "fatal",
    dead: false,
    children: [],
    live: 0,
    had: 0,
    component: undefined,
  };
  const index: Index = {
    version,
    root,
    frames: [],
    byNode: new Map(),
    marks: [],
    operations: [],
    links: [],
    discriminators: [],
    requirements: [],
    refs: [],
    unusual: [],
    unusualCount: 0,
  };
  const componentGroups = version === 2 ? new Set(["definitions", "parameters", "responses"]) : undefined;
  const stack: Frame[] = [root];
  const child = (parent: Frame, key: string | number, value: unknown, shape: string, mode: Mode) => {
    if (shape.endsWith("|[]")) shape = Array.isArray(value) ? `${shape.slice(0, -3)}[]` : shape.slice(0, -3);
    if (Array.isArray(value) ? !shape.endsWith("[]") : !isRecord(value)) return;
    const frame: Frame = {
      node: value as Frame["node"],
      parent,
      key,
      shape,
      mode,
      dead: false,
      children: [],
      live: 0,
      had: 0,
      component: parent.component,
    };
    if (frame.component === undefined && isComponentEntry(parent, componentGroups)) frame.component = frame;
    parent.children.push(frame);
    stack.push(frame);
  };
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    index.frames.push(frame);
    const { node, shape } = frame;
    if (!index.byNode.has(node)) index.byNode.set(node, frame);
    if (Array.isArray(node)) {
      const of = shape.slice(0, -2);
      frame.live = frame.had = node.length;
      for (let i = node.length - 1; i >= 0; i--) child(frame, i, node[i], of, "entry");
      continue;
    }
    if (shape.endsWith("{}")) {
      const of = shape.slice(0, -2);
      const keys = Object.keys(node);
      frame.live = frame.had = keys.length;
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        child(frame, key, node[key], of, "entry");
      }
      continue;
    }
    // An object of the specification.
    if (Object.hasOwn(node, INTERNAL)) {
      const value = node[INTERNAL];
      if (isMarked(value)) index.marks.push(frame);
      if (typeof value !== "boolean" && index.unusualCount++ < MAX_UNUSUAL)
        index.unusual.push({ pointer: pointerOf(frame), value, marked: isMarked(value) });
    }
    if (typeof node.$ref === "string") index.refs.push([frame, node.$ref]);
    if (shape === "Operation") {
      index.operations.push(frame);
      const pathItem = pathItemOf(frame);
      if (pathItem) pathItem.live = ++pathItem.had;
    } else if (shape === "Link") index.links.push(frame);
    else if (shape === "Discriminator") index.discriminators.push(frame);
    else if (shape === "SecurityRequirement") index.requirements.push(frame);
    else if (shape === "OAuthFlow" && frame.parent?.shape === "OAuthFlows")
      frame.parent.live = ++frame.parent.had;
    const own = fields[shape] ?? {};
    const entries = ENTRIES_OF[shape];
    const keys = Object.keys(node);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      if (key.startsWith("x-")) continue; // an extension: its value is data
      const field = own[key];
      if (field) child(frame, key, node[key], field[0], field[1]);
      else if (entries !== undefined) {
        frame.live = ++frame.had;
        child(frame, key, node[key], entries, "entry");
      }
    }
  }
  return index;
}

/** An entry of `components.<group>` (securitySchemes apart), or of Swagger 2.0's root maps. */
function isComponentEntry(parent: Frame, groups2: ReadonlySet<string> | undefined): boolean {
  const holder = parent.parent;
  if (!parent.shape.endsWith("{}") || holder === undefined) return false;
  if (groups2) return holder.shape === "Root" && groups2.has(String(parent.key));
  return holder.shape === "Components" && parent.key !== "securitySchemes";
}

/** The path item an operation belongs to (a fixed field of it, or an entry of its additionalOperations). */
function pathItemOf(operation: Frame): Frame | undefined {
  const parent = operation.parent;
  if (parent?.shape === "PathItem") return parent;
  if (parent?.shape === "Operation{}" && parent.parent?.shape === "PathItem") return parent.parent;
  return undefined;
}

function pointerOf(frame: Frame): string {
  const tokens: string[] = [];
  for (let at: Frame | undefined = frame; at?.parent !== undefined; at = at.parent)
    tokens.push(String(at.key));
  return pointerFromTokens(tokens.reverse());
}

/** The deepest frame a local reference passes through, or undefined when it does not resolve. */
function resolveFrame(index: Index, ref: string): Frame | undefined {
  const tokens = refTokens(ref);
  if (tokens === undefined) return undefined;
  let node: unknown = index.root.node;
  let frame = index.root;
  for (const token of tokens) {
    if (Array.isArray(node)) node = /^(0|[1-9]\d*)$/.test(token) ? node[Number(token)] : undefined;
    else if (isRecord(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
    if (node === undefined) return undefined;
    if (isRecord(node)) frame = index.byNode.get(node) ?? frame;
  }
  return frame;
}

function refTokens(ref: string): string[] | undefined {
  if (!ref.startsWith("#")) return undefined;
  try {
    return pointerTokens(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
}

function addDependent(target: Frame, dependent: Frame): void {
  if (target.dependents) target.dependents.push(dependent);
  else target.dependents = [dependent];
}

export function removeInternal(document: unknown): RemovalSummary {
  const summary: RemovalSummary = {
    marked: 0,
    operations: 0,
    components: 0,
    tags: 0,
    unusual: [],
    unusualCount: 0,
  };
  if (!isRecord(document) || Array.isArray(document)) return summary;
  const index = indexDocument(document);
  summary.unusual = index.unusual;
  summary.unusualCount = index.unusualCount;
  const { edges, mappings, links, schemes } = recordNames(index, document);
  const componentsBefore = reachedComponents(edges, false, new Set());
  const taggedBefore = countTags(index.operations);

  // 1. What is marked, and the operations whose tags are all internal tags; with what follows from it.
  const internalTags = new Set<string>();
  for (const mark of index.marks) {
    if (mark.shape !== "Tag" || mark.parent?.parent !== index.root) continue;
    const name = (mark.node as Record<string, unknown>).name;
    if (typeof name === "string") internalTags.add(name);
  }
  const removals: Frame[] = [];
  for (const mark of index.marks) {
    if (mark.dead) continue;
    summary.marked++;
    removeWithConsequences(mark, removals);
  }
  for (const operation of index.operations) {
    const tags = (operation.node as Record<string, unknown>).tags;
    if (
      internalTags.size > 0 &&
      Array.isArray(tags) &&
      tags.length > 0 &&
      tags.every((tag) => typeof tag === "string" && internalTags.has(tag))
    )
      removeWithConsequences(operation, removals);
  }

  // 2. Out of the document, with the names that named it.
  forgetLinkParameters(index, links);
  applyRemovals(document, index, removals);
  forgetRemovedProperties(index);
  forgetRemovedScopes(schemes);
  for (const [mapping, name, target] of mappings) if (target.dead) delete mapping[name];
  for (const discriminator of index.discriminators) {
    const node = discriminator.node as Record<string, unknown>;
    if (!discriminator.dead && isRecord(node.mapping) && Object.keys(node.mapping).length === 0)
      delete node.mapping;
  }
  summary.operations = index.operations.filter((operation) => operation.dead).length;

  // 3. Tags: the marked ones, and those that lost every operation.
  const live = index.operations.filter((operation) => !operation.dead);
  const taggedAfter = countTags(live);
  const goneTags = new Set(internalTags);
  for (const [name, count] of taggedBefore) if (count > 0 && !taggedAfter.has(name)) goneTags.add(name);
  summary.tags = dropTags(document, live, goneTags);

  // 4. Components no longer reached.
  summary.components = dropUnreached(document, index, edges, componentsBefore);
  return summary;
}

type Mapping = [mapping: Record<string, unknown>, name: string, target: Frame];

/**
 * What names what: each reference, link, discriminator mapping entry and security requirement becomes a
 * dependent of the frame it names (it goes when that goes); `edges` (what reaches what) and the mapping
 * entries are returned.
 */
function recordNames(
  index: Index,
  document: Record<string, unknown>,
): {
  edges: Array<[from: Frame, to: Frame]>;
  mappings: Mapping[];
  links: Array<[Frame, Frame[]]>;
  schemes: Array<[requirement: Frame, name: string, scheme: Frame]>;
} {
  const { root, version } = index;
  const edges: Array<[from: Frame, to: Frame]> = [];
  for (const [holder, ref] of index.refs) {
    const target = resolveFrame(index, ref);
    if (target === undefined || target === root) continue;
    addDependent(target, holder);
    edges.push([holder, target]);
  }
  const byOperationId = new Map<string, Frame[]>();
  for (const operation of index.operations) {
    const id = (operation.node as Record<string, unknown>).operationId;
    if (typeof id !== "string") continue;
    const same = byOperationId.get(id);
    if (same) same.push(operation);
    else byOperationId.set(id, [operation]);
  }
  const links: Array<[Frame, Frame[]]> = [];
  for (const link of index.links) {
    const { operationId, operationRef } = link.node as Record<string, unknown>;
    const byId = typeof operationId === "string" ? (byOperationId.get(operationId) ?? []) : [];
    const byRef = typeof operationRef === "string" ? resolveFrame(index, operationRef) : undefined;
    const targets = byRef && byRef !== root ? [...byId, byRef] : byId;
    for (const target of targets) {
      addDependent(target, link);
      edges.push([link, target]);
    }
    links.push([link, targets]);
  }
  // A mapping value or a requirement's key is a pointer, or the name of a schema or scheme.
  const named = (value: string, group: Record<string, unknown> | undefined) => {
    const target = value.startsWith("#")
      ? resolveFrame(index, value)
      : group && Object.hasOwn(group, value) && isRecord(group[value])
        ? index.byNode.get(group[value] as object)
        : undefined;
    return target === root ? undefined : target;
  };
  const schemas = componentMap(document, version, "schemas");
  const mappings: Mapping[] = [];
  for (const discriminator of index.discriminators) {
    const node = discriminator.node as Record<string, unknown>;
    // The mapping's entries, and 3.2's `defaultMapping` (an entry of the discriminator itself).
    const entries: Array<[Record<string, unknown>, string]> = [];
    if (isRecord(node.mapping))
      for (const name of Object.keys(node.mapping)) entries.push([node.mapping, name]);
    if (Object.hasOwn(node, "defaultMapping")) entries.push([node, "defaultMapping"]);
    for (const [holder, name] of entries) {
      const value = holder[name];
      const target = typeof value === "string" ? named(value, schemas) : undefined;
      if (target === undefined) continue;
      mappings.push([holder, name, target]);
      edges.push([discriminator, target]);
    }
  }
  const schemeMap = componentMap(document, version, "securitySchemes");
  const schemes: Array<[Frame, string, Frame]> = [];
  for (const requirement of index.requirements) {
    for (const name of Object.keys(requirement.node)) {
      const scheme = named(name, schemeMap);
      if (scheme === undefined) continue;
      addDependent(scheme, requirement);
      schemes.push([requirement, name, scheme]);
    }
  }
  return { edges, mappings, links, schemes };
}

/**
 * A link's `parameters` entry naming a parameter removed from the operation it links to goes (`id` or
 * `path.id`), unless a parameter of that name is left. Before the removals leave the document, so that
 * references to removed parameters still resolve.
 */
function forgetLinkParameters(index: Index, links: ReadonlyArray<[Frame, Frame[]]>): void {
  // Per operation (once, however many links name it): its parameters' names, and those left.
  const namesOf = new Map<Frame, { before: Set<string>; after: Set<string> }>();
  const names = (operation: Frame) => {
    const known = namesOf.get(operation);
    if (known) return known;
    const found = { before: new Set<string>(), after: new Set<string>() };
    for (const holder of [operation, pathItemOf(operation)]) {
      const list = holder?.children.find((child) => child.key === "parameters" && child.shape.endsWith("[]"));
      for (const parameter of list?.children ?? []) {
        const ref = (parameter.node as Record<string, unknown>).$ref;
        const resolved = typeof ref === "string" ? resolveFrame(index, ref) : parameter;
        const name = isRecord(resolved?.node) ? (resolved.node as Record<string, unknown>).name : undefined;
        if (typeof name !== "string") continue;
        found.before.add(name);
        if (!parameter.dead && !resolved?.dead) found.after.add(name);
      }
    }
    namesOf.set(operation, found);
    return found;
  };
  for (const [link, targets] of links) {
    const parameters = (link.node as Record<string, unknown>).parameters;
    if (link.dead || !isRecord(parameters) || Array.isArray(parameters)) continue;
    const operations = targets.filter((target) => target.shape === "Operation").map(names);
    for (const key of Object.keys(parameters)) {
      const name = /^(path|query|header|cookie)\./.test(key) ? key.slice(key.indexOf(".") + 1) : key;
      const removed = operations.some(({ before }) => before.has(name));
      if (removed && !operations.some(({ after }) => after.has(name))) delete parameters[key];
    }
  }
}

/**
 * Removes `start` (or the first holder of it that can go) and, one after the other, what that takes
 * along: dependents of anything removed, a schema list or callback left empty, a path item left without
 * operations. Each frame is removed once; `removals` gets the frames to take out of the document.
 */
function removeWithConsequences(start: Frame, removals: Frame[]): void {
  const work = [start];
  while (work.length > 0) {
    const frame = work.pop() as Frame;
    if (frame.dead) continue;
    let gone = frame;
    while (gone.mode === "holder" && gone.parent !== undefined) gone = gone.parent;
    if (gone.dead) continue;
    if (gone.mode === "fatal") {
      const pointer = pointerOf(gone);
      throw new InternalRemovalError(
        `${pointer === "" ? "the document itself" : `\`${pointer}\``} is marked \`x-internal\`${gone === frame ? "" : ` (through \`${pointerOf(frame)}\`)`}, and a document cannot go without it: remove the marking, or publish this audience without remove-internal.`,
        pointer,
      );
    }
    removals.push(gone);
    kill(gone, work);
    const parent = gone.parent as Frame;
    if (parent.shape.endsWith("[]") || parent.shape.endsWith("{}") || ENTRIES_OF[parent.shape]) {
      parent.live--;
      // A schema list left empty (`oneOf: []` is no schema), a request body's or parameter's content,
      // an operation's responses: their holder goes. A callback without path items goes.
      if (parent.live === 0 && (parent.mode === "holder" || parent.shape === "Callback")) work.push(parent);
    }
    // An OAuth scheme left without flows goes (and the requirements naming it).
    if (gone.shape === "OAuthFlow" && parent.shape === "OAuthFlows" && --parent.live === 0) work.push(parent);
    if (gone.shape === "Operation") {
      const pathItem = pathItemOf(gone);
      if (pathItem && --pathItem.live === 0) work.push(pathItem);
    }
  }
}

/** Takes the removed frames out of the document (list items from the last down). */
function applyRemovals(document: Record<string, unknown>, index: Index, removals: readonly Frame[]): void {
  const listRemovals = new Map<Frame, Set<number>>();
  for (const gone of removals) {
    const parent = gone.parent as Frame;
    if (Array.isArray(parent.node)) {
      const indexes = listRemovals.get(parent) ?? new Set<number>();
      indexes.add(gone.key as number);
      listRemovals.set(parent, indexes);
      continue;
    }
    delete (parent.node as Record<string, unknown>)[gone.key as string];
    if (parent === index.root && gone.key === "paths" && index.version <= 30) document.paths = {};
  }
  for (const [list, indexes] of listRemovals) {
    const items = list.node as unknown[];
    let kept = 0;
    for (let i = 0; i < items.length; i++) if (!indexes.has(i)) items[kept++] = items[i];
    items.length = kept;
    const holder = list.parent?.node;
    // An emptied `security` would say "no authentication", an emptied `servers` "no server".
    if (kept === 0 && (list.key === "security" || list.key === "servers") && isRecord(holder))
      delete (holder as Record<string, unknown>)[list.key];
  }
}

/** Removes the components reached before and not now (those never reached stay): their count. */
function dropUnreached(
  document: Record<string, unknown>,
  index: Index,
  edges: ReadonlyArray<[Frame, Frame]>,
  before: ReadonlySet<Frame>,
): number {
  const neverReached = new Set(
    index.frames.filter((frame) => frame.component === frame && !before.has(frame)),
  );
  const reached = reachedComponents(edges, true, neverReached);
  const emptied = new Set<Frame>();
  let dropped = 0;
  for (const frame of index.frames) {
    if (frame.component !== frame || frame.dead || reached.has(frame)) continue;
    const group = frame.parent as Frame;
    delete (group.node as Record<string, unknown>)[frame.key as string];
    dropped++;
    emptied.add(group);
  }
  // A group this step emptied goes too (one emptied by marks stays, as an empty map).
  for (const group of emptied)
    if (Object.keys(group.node).length === 0 && group.parent)
      delete (group.parent.node as Record<string, unknown>)[group.key as string];
  if (index.version !== 2 && isRecord(document.components) && Object.keys(document.components).length === 0)
    delete document.components;
  return dropped;
}

/** Marks `frame` and everything under it removed, and queues what depends on any of it. */
function kill(frame: Frame, work: Frame[]): void {
  const stack = [frame];
  while (stack.length > 0) {
    const at = stack.pop() as Frame;
    at.dead = true;
    if (at.dependents) for (const dependent of at.dependents) if (!dependent.dead) work.push(dependent);
    for (const child of at.children) if (!child.dead) stack.push(child);
  }
}

/** Scopes of a removed OAuth flow leave the requirements, unless a flow left declares them. */
function forgetRemovedScopes(
  schemes: ReadonlyArray<[requirement: Frame, name: string, scheme: Frame]>,
): void {
  const declaredBy = new Map<Frame, Set<unknown>>();
  for (const [requirement, name, scheme] of schemes) {
    const flows = scheme.children.find((child) => child.shape === "OAuthFlows");
    if (requirement.dead || scheme.dead || flows === undefined || flows.live === flows.had) continue;
    let declared = declaredBy.get(flows);
    if (declared === undefined) {
      declared = new Set<unknown>();
      for (const flow of flows.children) {
        const scopes = (flow.node as Record<string, unknown>).scopes;
        if (!flow.dead && isRecord(scopes)) for (const scope of Object.keys(scopes)) declared.add(scope);
      }
      declaredBy.set(flows, declared);
    }
    const node = requirement.node as Record<string, unknown>;
    const scopes = node[name];
    const kept = declared;
    if (Array.isArray(scopes)) node[name] = scopes.filter((scope) => kept.has(scope));
  }
}

/** Removed properties' names leave a schema's `required`, `dependentRequired` and discriminator. */
function forgetProperties(schema: Record<string, unknown>, gone: ReadonlySet<unknown>): void {
  if (Array.isArray(schema.required)) {
    schema.required = schema.required.filter((required) => !gone.has(required));
    if ((schema.required as unknown[]).length === 0) delete schema.required;
  }
  const dependent = schema.dependentRequired;
  if (isRecord(dependent) && !Array.isArray(dependent)) {
    for (const [key, names] of Object.entries(dependent)) {
      if (gone.has(key)) delete dependent[key];
      else if (Array.isArray(names)) dependent[key] = names.filter((other) => !gone.has(other));
    }
  }
  const discriminator = schema.discriminator;
  if (gone.has(discriminator) || (isRecord(discriminator) && gone.has(discriminator.propertyName)))
    delete schema.discriminator;
}

/**
 * The names of removed properties leave their own schema, and every schema when no property of that
 * name is left anywhere (a `required` beside an `allOf` naming a member's property).
 */
function forgetRemovedProperties(index: Index): void {
  const removed = new Set<string>();
  const left = new Set<string>();
  for (const frame of index.frames) {
    const map = frame.parent;
    if (map?.shape !== "Schema{}" || map.key !== "properties" || map.parent?.shape !== "Schema") continue;
    (frame.dead ? removed : left).add(frame.key as string);
    if (frame.dead && !map.parent.dead)
      forgetProperties(map.parent.node as Record<string, unknown>, new Set([frame.key]));
  }
  for (const name of left) removed.delete(name);
  if (removed.size === 0) return;
  for (const frame of index.frames)
    if (frame.shape === "Schema" && !frame.dead && !Array.isArray(frame.node))
      forgetProperties(frame.node, removed);
}

function componentMap(
  document: Record<string, unknown>,
  version: Version,
  group: "schemas" | "securitySchemes",
): Record<string, unknown> | undefined {
  const map =
    version === 2
      ? document[group === "schemas" ? "definitions" : "securityDefinitions"]
      : isRecord(document.components)
        ? document.components[group]
        : undefined;
  return isRecord(map) && !Array.isArray(map) ? map : undefined;
}

/**
 * The component entries reached from outside the components (and from `roots`), following references,
 * links and discriminator mappings through components; `alive`: only what was not removed.
 */
function reachedComponents(
  edges: ReadonlyArray<[Frame, Frame]>,
  alive: boolean,
  roots: ReadonlySet<Frame>,
): Set<Frame> {
  const from = new Map<Frame | undefined, Frame[]>();
  for (const [source, target] of edges) {
    if (alive && (source.dead || target.dead)) continue;
    if (target.component === undefined) continue;
    const list = from.get(source.component);
    if (list) list.push(target.component);
    else from.set(source.component, [target.component]);
  }
  const reached = new Set<Frame>(roots);
  const queue: Array<Frame | undefined> = [undefined, ...roots];
  while (queue.length > 0) {
    const at = queue.pop();
    for (const component of from.get(at) ?? []) {
      if (reached.has(component)) continue;
      reached.add(component);
      queue.push(component);
    }
  }
  return reached;
}

/** Operations by tag name (untagged operations not counted). */
function countTags(operations: readonly Frame[]): Map<string, number> {
  const byTag = new Map<string, number>();
  for (const operation of operations) {
    const tags = (operation.node as Record<string, unknown>).tags;
    if (!Array.isArray(tags)) continue;
    for (const tag of tags) if (typeof tag === "string") byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
  }
  return byTag;
}

/** Removes the named tags from the declared tags, the operations' `tags`, `x-tagGroups` and parents. */
function dropTags(
  document: Record<string, unknown>,
  operations: readonly Frame[],
  gone: ReadonlySet<string>,
): number {
  if (gone.size === 0) return 0;
  let dropped = 0;
  if (Array.isArray(document.tags)) {
    const kept = document.tags.filter(
      (tag) => !(isRecord(tag) && typeof tag.name === "string" && gone.has(tag.name)),
    );
    dropped = document.tags.length - kept.length;
    document.tags = kept;
    for (const tag of kept) {
      if (!isRecord(tag)) continue;
      for (const key of ["x-parent", "parent"])
        if (typeof tag[key] === "string" && gone.has(tag[key] as string)) delete tag[key];
    }
  }
  for (const frame of operations) {
    const operation = frame.node as Record<string, unknown>;
    if (!Array.isArray(operation.tags)) continue;
    operation.tags = operation.tags.filter((tag) => !(typeof tag === "string" && gone.has(tag)));
    if ((operation.tags as unknown[]).length === 0) delete operation.tags;
  }
  const groups = document["x-tagGroups"];
  if (Array.isArray(groups)) {
    for (const group of groups)
      if (isRecord(group) && Array.isArray(group.tags))
        group.tags = group.tags.filter((tag) => !(typeof tag === "string" && gone.has(tag)));
    document["x-tagGroups"] = groups.filter(
      (group) => !isRecord(group) || !Array.isArray(group.tags) || group.tags.length > 0,
    );
  }
  return dropped;
}

/** Every local `$ref` of the document (at places the specification reads one) that does not resolve. */
export function danglingRefs(document: unknown): string[] {
  if (!isRecord(document) || Array.isArray(document)) return [];
  const index = indexDocument(document);
  return index.refs
    .filter(([, ref]) => ref.startsWith("#") && !resolves(document, ref))
    .map(([, ref]) => ref);
}

function resolves(document: unknown, ref: string): boolean {
  const tokens = refTokens(ref);
  if (tokens === undefined) return false;
  let node = document;
  for (const token of tokens) {
    if (Array.isArray(node)) node = /^(0|[1-9]\d*)$/.test(token) ? node[Number(token)] : undefined;
    else if (isRecord(node) && Object.hasOwn(node, token)) node = node[token];
    else return false;
    if (node === undefined) return false;
  }
  return true;
}
