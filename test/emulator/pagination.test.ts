import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { PaginationError, paginate, parsePageQuery } from "../../harness/emulator/pagination.ts";
import { call, PETSTORE_YAML } from "../support/emulator-fixtures.ts";

let emulator: RunningEmulator;
const slugs = Array.from({ length: 7 }, (_, i) => `page-${i}`);

beforeAll(async () => {
  emulator = await startEmulator();
  for (const slug of slugs) emulator.seedSpec("demo-org", slug, PETSTORE_YAML);
});
afterAll(() => emulator.close());

interface ListBody {
  items: { slug: string }[];
  count: number;
  next?: { page: string };
}

async function collect(path: string, limit: number): Promise<{ pages: ListBody[]; slugs: string[] }> {
  const pages: ListBody[] = [];
  let page: string | undefined;
  do {
    const query = new URLSearchParams({ limit: String(limit), ...(page ? { page } : {}) });
    const result = await call(emulator, "GET", `${path}?${query}`);
    expect(result.status).toBe(200);
    const body = result.body as ListBody;
    pages.push(body);
    page = body.next?.page;
  } while (page !== undefined && pages.length < 100);
  return { pages, slugs: pages.flatMap((p) => p.items.map((i) => i.slug)) };
}

describe("pagination over HTTP", () => {
  it("walks every specification in creation order; next is absent on the last page", async () => {
    const { pages, slugs: seen } = await collect("/orgs/demo-org/openapi", 3);
    expect(seen).toEqual(slugs);
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(pages.every((p) => p.count === 7)).toBe(true);
    expect(pages.at(-1)).not.toHaveProperty("next");
  });

  it("has no next when the last page is exactly full, and defaults to 50 per page", async () => {
    const { pages } = await collect("/orgs/demo-org/openapi", 7);
    expect(pages).toHaveLength(1);
    expect(pages[0]).not.toHaveProperty("next");
    const all = await call(emulator, "GET", "/orgs/demo-org/openapi");
    expect((all.body as ListBody).items).toHaveLength(7);
  });

  it("neither skips nor repeats items deleted between two pages", async () => {
    const local = await startEmulator();
    try {
      for (const slug of ["a", "b", "c", "d"]) local.seedSpec("demo-org", slug, PETSTORE_YAML);
      const first = (await call(local, "GET", "/orgs/demo-org/openapi?limit=2")).body as ListBody;
      await call(local, "DELETE", "/orgs/demo-org/openapi/b");
      const page = first.next?.page ?? "";
      const second = (await call(local, "GET", `/orgs/demo-org/openapi?limit=2&page=${page}`))
        .body as ListBody;
      expect(second.items.map((i) => i.slug)).toEqual(["c", "d"]);
      expect(second.count).toBe(3);
    } finally {
      await local.close();
    }
  });

  it("paginates versions as well", async () => {
    for (let i = 0; i < 2; i++) emulator.seedSpec("demo-org", "page-0", PETSTORE_YAML);
    const first = (await call(emulator, "GET", "/orgs/demo-org/openapi/page-0/versions?limit=2"))
      .body as ListBody;
    expect(first.items).toHaveLength(2);
    expect(first.count).toBe(3);
    const second = await call(
      emulator,
      "GET",
      `/orgs/demo-org/openapi/page-0/versions?limit=2&page=${first.next?.page}`,
    );
    expect((second.body as ListBody).items).toHaveLength(1);
    expect(second.body).not.toHaveProperty("next");
  });

  it.each(["0", "-1", "1001", "2.5", "ten", ""])("answers 400 for limit=%s", async (limit) => {
    const result = await call(emulator, "GET", `/orgs/demo-org/openapi?limit=${limit}`);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: { code: 400, message: expect.stringContaining("limit") } });
  });

  it("accepts limit=1000 and limit=1", async () => {
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi?limit=1000")).status).toBe(200);
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi?limit=1")).status).toBe(200);
  });

  it("answers 400 for an unknown page token and for a token of another list", async () => {
    const bogus = await call(emulator, "GET", "/orgs/demo-org/openapi?page=bogus");
    expect(bogus.status).toBe(400);
    expect((bogus.body as { error: { message: string } }).error.message).toContain("next.page");
    const specsPage = ((await call(emulator, "GET", "/orgs/demo-org/openapi?limit=1")).body as ListBody).next
      ?.page;
    const crossed = await call(emulator, "GET", `/orgs/demo-org/openapi/page-0/versions?page=${specsPage}`);
    expect(crossed.status).toBe(400);
  });
});

describe("paginate and parsePageQuery", () => {
  const entries = [1, 2, 3].map((seq) => ({ seq, value: `item-${seq}` }));

  it("returns an empty last page for an empty list", () => {
    expect(paginate([], { limit: 5 }, "k")).toEqual({ items: [], count: 0 });
  });

  it("round-trips its own tokens", () => {
    const first = paginate(entries, { limit: 2 }, "k");
    const request = parsePageQuery(new URLSearchParams({ page: first.next?.page ?? "" }), "k");
    expect(paginate(entries, request, "k")).toEqual({ items: ["item-3"], count: 3 });
  });

  it("rejects a token issued for another list key", () => {
    const token = paginate(entries, { limit: 1 }, "one").next?.page ?? "";
    expect(() => parsePageQuery(new URLSearchParams({ page: token }), "two")).toThrow(PaginationError);
  });
});
