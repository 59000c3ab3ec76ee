/**
 * The cases of issue 26 (items 1–4) as spec files: each holds parts marked internal that once reached the
 * public document, and says which names must not be left in it (`gone`) and which must (`kept`). Used
 * by the unit tests (test/shaping/remove-internal.test.ts) and through the CLI's `bundle --audience` and
 * `sync` (test/cli/internal-parts.test.ts).
 */
export interface InternalCase {
  file: string;
  text: string;
  /** Names of removed parts: none may appear anywhere in the public document. */
  gone: string[];
  /** Names that must still be there. */
  kept: string[];
}

/** 1. Entries whose names start with `x-`: a response header, a property, a component, a scheme (3.0). */
export const XNAMES_30: InternalCase = {
  file: "api/x-names-30.yaml",
  text: `openapi: 3.0.3
info: {title: X names, version: "1.0.0"}
security: [{apiKey: []}]
paths:
  /accounts:
    get:
      operationId: listAccounts
      security: [{x-internal-key: []}, {apiKey: []}]
      responses:
        "200":
          description: ok
          headers:
            x-debug-trace: {x-internal: true, schema: {type: string}}
            x-rate-limit: {schema: {type: integer}}
            x-internal: {description: a header named x-internal is a name, schema: {type: string}}
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Account"}
components:
  schemas:
    Account:
      type: object
      required: [id, x-tenant]
      properties:
        id: {type: string}
        x-tenant: {type: string, x-internal: true}
        audit: {$ref: "#/components/schemas/x-Audit"}
    x-Audit:
      x-internal: true
      type: object
      properties: {by: {type: string}}
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: X-Key}
    x-internal-key: {x-internal: true, type: apiKey, in: header, name: X-Internal-Key}
`,
  gone: ["x-debug-trace", "x-tenant", "x-Audit", "x-internal-key", "X-Internal-Key"],
  kept: ["x-rate-limit", "a header named x-internal is a name", "listAccounts", "apiKey"],
};

/** 1. The same in Swagger 2.0: response headers, definitions, securityDefinitions. */
export const XNAMES_20: InternalCase = {
  file: "api/x-names-20.yaml",
  text: `swagger: "2.0"
info: {title: X names (2.0), version: "1.0.0"}
securityDefinitions:
  apiKey: {type: apiKey, in: header, name: X-Key}
  x-internal-key: {x-internal: true, type: apiKey, in: header, name: X-Internal-Key}
paths:
  /accounts:
    get:
      operationId: listAccounts
      security: [{apiKey: []}, {x-internal-key: []}]
      responses:
        "200":
          description: ok
          headers:
            x-debug-trace: {x-internal: true, type: string}
            x-rate-limit: {type: integer}
          schema: {$ref: "#/definitions/Account"}
definitions:
  Account:
    type: object
    required: [id, x-tenant]
    properties:
      id: {type: string}
      x-tenant: {type: string, x-internal: true}
      audit: {$ref: "#/definitions/x-Audit"}
  x-Audit: {x-internal: true, type: object}
`,
  gone: ["x-debug-trace", "x-tenant", "x-Audit", "x-internal-key", "X-Internal-Key"],
  kept: ["x-rate-limit", "listAccounts", "apiKey"],
};

/** 2. OpenAPI 3.2's `query` and `additionalOperations`. */
export const NEWER_OPERATIONS_32: InternalCase = {
  file: "api/operations-32.yaml",
  text: `openapi: 3.2.0
info: {title: Newer operations, version: "1.0.0"}
tags:
  - {name: records}
  - {name: backoffice, x-internal: true}
paths:
  /records:
    get: {operationId: listRecords, tags: [records], responses: {"200": {description: ok}}}
    query: {operationId: queryRecordsInBulk, tags: [backoffice], responses: {"200": {description: ok}}}
    additionalOperations:
      PURGE: {operationId: purgeRecords, tags: [backoffice], responses: {"204": {description: purged}}}
      COPY: {operationId: copyRecords, x-internal: true, responses: {"201": {description: copied}}}
      LINK: {operationId: linkRecords, tags: [records], responses: {"204": {description: linked}}}
  /reports:
    query: {operationId: queryReports, tags: [records], responses: {"200": {description: ok}}}
  /purge-all:
    additionalOperations:
      PURGE: {operationId: purgeEverything, tags: [backoffice], responses: {"204": {description: purged}}}
`,
  gone: ["queryRecordsInBulk", "purgeRecords", "copyRecords", "backoffice", "purgeEverything", "/purge-all"],
  kept: ["listRecords", "linkRecords", "queryReports", "LINK"],
};

/** 3. Markings that are truthy without being `true`: removed, as Redocly removes them, with a warning. */
export const TRUTHY_31: InternalCase = {
  file: "api/truthy-31.yaml",
  text: `openapi: 3.1.0
info: {title: Truthy markings, version: "1.0.0"}
paths:
  /string-true: {get: {operationId: markedStringTrue, x-internal: "true", responses: {"200": {description: ok}}}}
  /yes: {get: {operationId: markedYes, x-internal: "yes", responses: {"200": {description: ok}}}}
  /one: {get: {operationId: markedOne, x-internal: 1, responses: {"200": {description: ok}}}}
  /string-one: {get: {operationId: markedStringOne, x-internal: "1", responses: {"200": {description: ok}}}}
  /upper: {get: {operationId: markedUpperTrue, x-internal: TRUE, responses: {"200": {description: ok}}}}
  /false: {get: {operationId: keptFalse, x-internal: false, responses: {"200": {description: ok}}}}
  /zero: {get: {operationId: keptZero, x-internal: 0, responses: {"200": {description: ok}}}}
  /empty: {get: {operationId: keptEmpty, x-internal: "", responses: {"200": {description: ok}}}}
`,
  gone: ["markedStringTrue", "markedYes", "markedOne", "markedStringOne", "markedUpperTrue"],
  kept: ["keptFalse", "keptZero", "keptEmpty"],
};

/**
 * 4. Names of removed parts: a link's operationId and operationRef, discriminator mappings (by pointer
 * and by name), a link's parameter naming a removed parameter.
 */
export const NAMES_30: InternalCase = {
  file: "api/names-30.yaml",
  text: `openapi: 3.0.3
info: {title: Names of removed parts, version: "1.0.0"}
paths:
  /users:
    post:
      operationId: createUser
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Pet"}
      responses:
        "201":
          description: created
          links:
            GetUser: {operationId: getUser, parameters: {id: "$response.body#/id", query.debugToken: "$response.body#/token"}}
            AuditUser: {operationId: auditUserInBackOffice}
            AuditByRef: {operationRef: "#/paths/~1users~1%7Bid%7D~1audit/get"}
  /users/{id}:
    get:
      operationId: getUser
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: debugToken, in: query, x-internal: true, schema: {type: string}}
      responses: {"200": {description: ok}}
  /users/{id}/audit:
    get:
      operationId: auditUserInBackOffice
      x-internal: true
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok}}
components:
  schemas:
    Pet:
      oneOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/RoboDog"}]
      discriminator:
        propertyName: kind
        mapping: {cat: "#/components/schemas/Cat", robo: "#/components/schemas/RoboDog", robot: RoboDog}
    Cat: {type: object, properties: {kind: {type: string}}}
    RoboDog: {x-internal: true, type: object, properties: {kind: {type: string}}}
`,
  gone: ["auditUserInBackOffice", "RoboDog", "AuditUser", "AuditByRef", "/audit", "robo", "debugToken"],
  kept: ["getUser", "GetUser", "Cat", "createUser"],
};

export const INTERNAL_CASES = [XNAMES_30, XNAMES_20, NEWER_OPERATIONS_32, TRUTHY_31, NAMES_30];
