/**
 * The files of the review's base commit, for comparing each spec with what it was: the commit's tree
 * (the workspace's folder of it) written into a temporary folder by git itself — `git ls-tree` lists it,
 * `git cat-file --batch` streams the blobs — fetched first (one commit, no history) when the checkout
 * lacks it. No archiver, no shell: the same on Linux, macOS and Windows. Bounded: the listing, the
 * number of files, each file and the whole are capped, and the whole read has one time budget. Names
 * come from the commit, so from whoever wrote it: one that could leave the folder, name a `.git` or
 * not be written on this system is not written, and said. Git only, nothing of a CI: the host says which
 * commit.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import type { BaseTree, Git } from "../../core/ports.ts";
import { fileAtCommit, headCommit, isAncestor } from "./commits.ts";
import { listFiles } from "./list-files.ts";
import { gitProblem, runGit } from "./run-git.ts";

/** The Git port over the `git` command. */
export const commandLineGit: Git = {
  checkoutTree: (workspace, commit, options) => checkoutBaseTree(workspace, commit, options),
  fileAt: fileAtCommit,
  isAncestor,
  headCommit,
  listFiles,
};

export interface TreeLimits {
  /** Entries of the listing (files, links, submodules): past it the tree is not read. */
  maxFiles: number;
  /** Bytes of the files written, in all: past it the tree is not read. */
  maxBytes: number;
  /** A file larger than this is not written (no spec and no file a spec references can be). */
  maxFileBytes: number;
  /** Bytes of the listing itself (its names): past it the tree is not read. */
  maxListingBytes: number;
  /** A name longer than this (in bytes) is not written. */
  maxNameBytes: number;
}

export const TREE_LIMITS: Readonly<TreeLimits> = {
  maxFiles: 100_000,
  maxBytes: 1024 * 1024 * 1024,
  maxFileBytes: 32 * 1024 * 1024,
  maxListingBytes: 64 * 1024 * 1024,
  maxNameBytes: 1024,
};

/** The base tree's read when the caller gives it no budget. */
export const TREE_BUDGET_MS = 120_000;

const COMMIT = /^[0-9a-f]{7,64}$/;

interface Entry {
  mode: string;
  type: string;
  oid: string;
  size: number;
  name: string;
  utf8: boolean;
}

export async function checkoutBaseTree(
  workspace: string,
  commit: string,
  options: { timeoutMs?: number; limits?: Partial<TreeLimits>; platform?: NodeJS.Platform } = {},
): Promise<BaseTree> {
  if (!COMMIT.test(commit)) return { ok: false, reason: `${JSON.stringify(commit)} is not a commit id` };
  const limits = { ...TREE_LIMITS, ...options.limits };
  const deadline = Date.now() + (options.timeoutMs ?? TREE_BUDGET_MS);
  const short = commit.slice(0, 12);
  if (!(await inRepository(workspace))) {
    return {
      ok: false,
      missing: true,
      reason: `the workspace is not in a git checkout, so it lacks the base commit ${short}`,
    };
  }
  let present = await presence(workspace, commit, deadline);
  if (present.kind === "missing") {
    // Half the budget at most, so that a fetch that hangs leaves the rest of the read its time.
    const fetched = await runGit(workspace, ["fetch", "--no-tags", "--depth=1", "origin", commit], {
      deadline: Date.now() + (deadline - Date.now()) / 2,
    });
    if (!fetched.failure) present = await presence(workspace, commit, deadline);
    if (present.kind === "missing") {
      return {
        ok: false,
        missing: true,
        reason: `the base commit ${short} is not in the checkout and could not be fetched (${gitProblem(fetched)})`,
      };
    }
  }
  if (present.kind === "failed") {
    return {
      ok: false,
      reason: `git could not tell whether the base commit ${short} is in the checkout: ${present.reason}`,
    };
  }
  const listed = await listTree(workspace, commit, deadline, limits);
  if (!listed.ok) return { ok: false, reason: `git ls-tree ${short} failed: ${listed.reason}` };
  const skipped = new Map<string, string>();
  const wanted: Entry[] = [];
  let bytes = 0;
  for (const entry of listed.entries) {
    const why = skipReason(entry, limits, options.platform ?? process.platform);
    if (why) skipped.set(entry.name, why);
    else {
      wanted.push(entry);
      bytes += entry.size;
    }
  }
  if (bytes > limits.maxBytes) {
    return {
      ok: false,
      reason: `its files hold ${bytes} bytes, more than the ${limits.maxBytes} the review writes out`,
    };
  }
  let root: string;
  try {
    root = await mkdtemp(path.join(tmpdir(), "gitbook-openapi-base-"));
  } catch (error) {
    return { ok: false, reason: `no temporary folder could be made: ${(error as Error).message}` };
  }
  const dispose = () => rm(root, { recursive: true, force: true, maxRetries: 3 });
  // Discovery lists a folder inside a work tree with that work tree's git, which knows none of these files.
  if (await inRepository(path.dirname(root), false)) {
    await dispose().catch(() => undefined);
    return {
      ok: false,
      reason: `the temporary folder ${root} is inside a git work tree; point TMPDIR (TEMP on Windows) elsewhere`,
    };
  }
  const written = await writeBlobs(workspace, root, wanted, skipped, deadline);
  if (!written.ok) {
    await dispose().catch(() => undefined);
    return { ok: false, reason: `git cat-file ${short} failed: ${written.reason}` };
  }
  return { ok: true, root, commit, dispose, ...(skipped.size > 0 ? { skipped } : {}) };
}

/** Whether the workspace is in a git work tree (a `.git` in it or a folder above it), or git is pointed at one. */
async function inRepository(workspace: string, orGitDir = true): Promise<boolean> {
  if (orGitDir && process.env.GIT_DIR) return true;
  for (let folder = path.resolve(workspace); ; ) {
    if (
      await stat(path.join(folder, ".git")).then(
        () => true,
        () => false,
      )
    )
      return true;
    const parent = path.dirname(folder);
    if (parent === folder) return false;
    folder = parent;
  }
}

type Presence = { kind: "present" } | { kind: "missing" } | { kind: "failed"; reason: string };

/** Whether the checkout holds the commit: git's own answer ("missing"), not the failure of a command. */
async function presence(workspace: string, commit: string, deadline: number): Promise<Presence> {
  const query = `${commit}^{commit}`;
  const answer = await runGit(workspace, ["cat-file", "--batch-check"], {
    deadline,
    input: `${query}\n`,
    maxStdout: 4096,
  });
  const line = answer.stdout.toString("utf8").trim();
  if (answer.code === 0 && /^[0-9a-f]{40,64} commit \d+$/.test(line)) return { kind: "present" };
  if (answer.code === 0 && line === `${query} missing`) return { kind: "missing" };
  if (answer.code === 0 && line === `${query} ambiguous`)
    return { kind: "failed", reason: `${commit} names more than one object` };
  return {
    kind: "failed",
    reason: answer.code === 0 ? `git answered ${JSON.stringify(line.slice(0, 200))}` : gitProblem(answer),
  };
}

/** `git ls-tree -r -z -l`: every file of the commit under the workspace's folder, names as git has them. */
async function listTree(
  workspace: string,
  commit: string,
  deadline: number,
  limits: TreeLimits,
): Promise<{ ok: true; entries: Entry[] } | { ok: false; reason: string }> {
  const listing = await runGit(workspace, ["ls-tree", "-r", "-z", "-l", `${commit}^{commit}`], {
    deadline,
    maxStdout: limits.maxListingBytes,
  });
  if (listing.code !== 0) return { ok: false, reason: gitProblem(listing) };
  const entries: Entry[] = [];
  let start = 0;
  while (start < listing.stdout.length) {
    const end = listing.stdout.indexOf(0, start);
    if (end < 0) return { ok: false, reason: "git's listing ended in the middle of an entry" };
    const record = listing.stdout.subarray(start, end);
    start = end + 1;
    const tab = record.indexOf(9);
    const head =
      tab < 0
        ? undefined
        : /^(\d{6}) (\w+) ([0-9a-f]{40,64}) +(\d+|-)$/.exec(record.subarray(0, tab).toString("latin1"));
    if (!head) return { ok: false, reason: "git's listing has an entry of an unknown form" };
    const nameBytes = record.subarray(tab + 1);
    const name = nameBytes.toString("utf8");
    entries.push({
      mode: head[1] as string,
      type: head[2] as string,
      oid: head[3] as string,
      size: head[4] === "-" ? 0 : Number(head[4]),
      name,
      // A name that is not UTF-8 does not come back the same from its decoding: said, not written.
      utf8: Buffer.from(name, "utf8").equals(nameBytes),
    });
    if (entries.length > limits.maxFiles) {
      return {
        ok: false,
        reason: `the commit has more than ${limits.maxFiles} files, more than the review reads`,
      };
    }
  }
  return { ok: true, entries };
}

/** Why an entry of the listing is not written, if it is not. */
function skipReason(entry: Entry, limits: TreeLimits, platform: NodeJS.Platform): string | undefined {
  if (entry.type === "commit") return "is a submodule, which the review does not read";
  if (entry.type !== "blob") return `is a git ${entry.type}, not a file`;
  if (entry.mode === "120000") return "is a symbolic link, which the review does not follow";
  if (entry.size > limits.maxFileBytes) return `is larger than ${limits.maxFileBytes} bytes`;
  if (!entry.utf8) return "has a name that is not UTF-8";
  return unsafeNameReason(entry.name, limits.maxNameBytes, platform);
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * Why a file name from a commit cannot be written under the base folder as itself, if it cannot: one
 * that is absolute or has an empty, `.` or `..` segment would leave or alias the folder, one with a
 * `.git` segment could make the folder a repository, and on Windows a name the file system would read
 * as another (`\`, `:`, a trailing dot or space, a device name, `git~1`).
 */
export function unsafeNameReason(
  name: string,
  maxNameBytes: number,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (Buffer.byteLength(name, "utf8") > maxNameBytes) return `has a name longer than ${maxNameBytes} bytes`;
  const windows = platform === "win32";
  if (name.startsWith("/") || (windows && /^([a-z]:|[\\/])/i.test(name))) return "has an absolute name";
  const segments = windows ? name.split(/[\\/]/) : name.split("/");
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..")
      return "has a name with an empty, . or .. segment";
    const bare = windows ? segment.replace(/[. ]+$/, "") : segment;
    if (bare.toLowerCase() === ".git" || (windows && /^git~\d+$/i.test(bare)))
      return "has a name with a .git segment";
    if (windows) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
      if (/[<>:"|?*\u0000-\u001f]/.test(segment) || bare !== segment || WINDOWS_RESERVED.test(segment))
        return "has a name Windows cannot write as it is";
    }
  }
  return undefined;
}

/**
 * `git cat-file --batch`, each blob written as it arrives: one file held at a time, the output read no
 * faster than the files are written. Every answer must be the blob asked for, of its listed size.
 */
async function writeBlobs(
  workspace: string,
  root: string,
  entries: readonly Entry[],
  skipped: Map<string, string>,
  deadline: number,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (entries.length === 0) return { ok: true };
  let index = 0;
  const batch = await runGit(workspace, ["cat-file", "--batch"], {
    deadline,
    input: entries.map((entry) => `${entry.oid}\n`).join(""),
    read: async (stdout) => {
      let pending: Buffer = Buffer.alloc(0);
      let body: { entry: Entry; chunks: Buffer[]; left: number } | undefined;
      for await (const chunk of stdout) {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        for (;;) {
          if (body) {
            const take = Math.min(body.left, pending.length);
            body.chunks.push(pending.subarray(0, take));
            body.left -= take;
            pending = pending.subarray(take);
            if (body.left > 0 || pending.length === 0) break;
            if (pending[0] !== 10) throw new Error("git's answer for a file did not end where its size said");
            pending = pending.subarray(1);
            await writeEntry(root, body.entry, Buffer.concat(body.chunks), skipped);
            body = undefined;
            index++;
            continue;
          }
          const eol = pending.indexOf(10);
          if (eol < 0) {
            if (pending.length > 200) throw new Error("git's answer has a header of an unknown form");
            break;
          }
          const header = pending.subarray(0, eol).toString("latin1");
          pending = pending.subarray(eol + 1);
          const entry = entries[index];
          if (!entry || header !== `${entry.oid} blob ${entry.size}`)
            throw new Error(`git answered ${JSON.stringify(header.slice(0, 120))} for a file it had listed`);
          body = { entry, chunks: [], left: entry.size };
        }
      }
    },
  });
  if (batch.code !== 0) return { ok: false, reason: gitProblem(batch) };
  if (index !== entries.length)
    return { ok: false, reason: `git answered for ${index} of the ${entries.length} files, then stopped` };
  return { ok: true };
}

/** Codes of a write that fail one file (a name this system refuses, a case-folded twin), not the tree. */
const NAME_PROBLEMS = new Set(["ENAMETOOLONG", "EEXIST", "EINVAL", "ENOTDIR", "EISDIR", "EILSEQ", "ENOENT"]);

async function writeEntry(
  root: string,
  entry: Entry,
  bytes: Buffer,
  skipped: Map<string, string>,
): Promise<void> {
  const target = path.join(root, ...entry.name.split("/"));
  const relative = path.relative(root, target);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) {
    skipped.set(entry.name, "has a name that leads outside the folder");
    return;
  }
  try {
    await mkdir(path.dirname(target), { recursive: true });
    // `wx`: never through something already there (a twin on a case-insensitive file system).
    await writeFile(target, bytes, { flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (!NAME_PROBLEMS.has(code)) throw error;
    skipped.set(entry.name, `could not be written here (${code})`);
  }
}
