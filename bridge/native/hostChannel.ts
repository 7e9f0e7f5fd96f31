/**
 * Where a native host listens, and how bridges find it: one code path for every platform, the
 * address from the platform. The host's side (listen, publish, unpublish) and the bridge's (which
 * folder entries announce a host, what address each names, when one is stale) are decided here;
 * hostProgram.ts and hostClients.ts only call these.
 *
 * - `socket` (Linux, macOS): the host binds a unix socket under a temporary name in the run folder
 *   (0600 from the start: umask), renames it to `h-<pid>.sock` once listening. The folder entry is
 *   the address. A socket that refuses connections belongs to a host that is gone.
 * - `pipe` (Windows): named pipes are not files in a folder, and anyone on the machine can list
 *   their names (`\\.\pipe\`), so the name is no secret and no folder guards it. The host listens
 *   on `\\.\pipe\tether-<user tag>-<pid>-<128 random bits>`, then writes `h-<pid>.pipe` into the run
 *   folder (written aside, renamed into place): `{"v":1,"pipe":…,"pid":…}`. A bridge reads it and
 *   connects to the pipe it names — only a local pipe of this user's Tether (`\\.\pipe\tether-<its
 *   own tag>-<that pid>-…`), never a remote `\\server\pipe\…` (which would send the user's
 *   credentials over SMB). A pipe that no longer exists (ENOENT) means the host is gone: the
 *   descriptor is removed, if it still names that pipe.
 *
 * What protects the pipe (Windows, checked against Microsoft's "Named Pipe Security and Access
 * Rights" and libuv's src/win/pipe.c, 2026-12-01; not run on a Windows PC):
 * - Node (libuv) creates it with no security attributes, so it gets the default DACL: full control
 *   for SYSTEM, Administrators and the creator; READ for Everyone and Anonymous. Another user can
 *   therefore open it read-only (libuv's own client even falls back to that) and read what the host
 *   sends first — the pairing challenge, a random nonce — but cannot write, so can never answer it:
 *   the handshake times out and the connection closes. Node has no option to narrow that DACL
 *   (`readableAll`/`writableAll` only widen it). libuv does not set PIPE_REJECT_REMOTE_CLIENTS:
 *   the same read-only reach exists over the network for authenticated users; it ends the same way.
 * - Squatting: libuv creates the first instance with FILE_FLAG_FIRST_PIPE_INSTANCE, so if anyone
 *   already holds the name the host's listen fails (EADDRINUSE) rather than sharing it; the random
 *   part means nobody can take the name before the host does. Adding an instance to the host's
 *   pipe needs FILE_CREATE_PIPE_INSTANCE, which the default DACL gives only to the creator, SYSTEM
 *   and Administrators.
 * - The descriptor is only a hint; the proof is the pairing: a bridge sends nothing but its hello
 *   (a proof bound to the host's nonce, useless elsewhere) until the host has proven the token, as
 *   on the unix socket. Node's client does not ask for SECURITY_IDENTIFICATION, so a hostile pipe
 *   server with SeImpersonatePrivilege (a service, an administrator) could act as the bridge's
 *   user; the bridge connects only to names from descriptors in the user's own run folder, which
 *   other users cannot write (folderProtection in runDir.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { z } from 'zod';
import { ensurePrivateDir, pathFor, type Account } from '../runDir.ts';

export type HostChannel =
  | { kind: 'socket'; platform: NodeJS.Platform; runDir: string }
  | {
      kind: 'pipe';
      platform: NodeJS.Platform;
      runDir: string;
      /** Every pipe of this user's hosts starts with this (Windows: `\\.\pipe\tether-<tag>-`). */
      pipePrefix: string;
    };

const SOCKET_ENTRY = /^h-(\d{1,10})\.sock$/;
const PIPE_ENTRY = /^h-(\d{1,10})\.pipe$/;
/** A descriptor is a line of JSON; anything larger is not one of ours. */
export const MAX_DESCRIPTOR_BYTES = 512;

/**
 * A short tag for this account in its pipes' names (16 hex digits of a SHA-256 of the user name
 * and profile folder, letters folded as Windows folds them): one user's hosts never share a name
 * with another's, and a bridge follows only its own user's pipes. It is not a secret — anyone can
 * list pipe names — and it proves nothing; the pairing does.
 */
export function userTag(account: Account): string {
  return createHash('sha256').update(`${account.username.toLowerCase()}\n${account.home.toLowerCase()}`).digest('hex').slice(0, 16);
}

export function windowsPipePrefix(account: Account): string {
  return `\\\\.\\pipe\\tether-${userTag(account)}-`;
}

/** The platform's channel: named pipes on Windows, unix sockets elsewhere. */
export function hostChannelFor(platform: NodeJS.Platform, runDir: string, account: Account): HostChannel {
  return platform === 'win32' ? { kind: 'pipe', platform, runDir, pipePrefix: windowsPipePrefix(account) } : { kind: 'socket', platform, runDir };
}

export function isHostEntryName(channel: HostChannel, name: string): boolean {
  return (channel.kind === 'socket' ? SOCKET_ENTRY : PIPE_ENTRY).test(name);
}

export interface Publication {
  /** What the host's server listens on. */
  listen: string;
  /** The run-folder entry bridges look for (the socket itself, or the pipe's descriptor). */
  entry: string;
  /** Where the entry is made before it is renamed into place. */
  aside: string;
  /** The descriptor's text (pipes); null: the socket is its own entry. */
  descriptor: string | null;
}

/** Where a host with this pid publishes; `nonce` (32 hex digits) makes a pipe's name its own. */
export function publicationOf(channel: HostChannel, pid: number, nonce: string): Publication {
  const paths = pathFor(channel.platform);
  if (channel.kind === 'socket') {
    const name = `h-${pid}.sock`;
    const aside = paths.join(channel.runDir, `.${name}.tmp`);
    return { listen: aside, entry: paths.join(channel.runDir, name), aside, descriptor: null };
  }
  const name = `h-${pid}.pipe`;
  const pipe = `${channel.pipePrefix}${pid}-${nonce}`;
  return {
    listen: pipe,
    entry: paths.join(channel.runDir, name),
    aside: paths.join(channel.runDir, `.${name}.${nonce.slice(0, 8)}.tmp`),
    descriptor: `${JSON.stringify({ v: 1, pipe, pid })}\n`,
  };
}

/** What the bridge can see of a run-folder entry (lstat, and the text of a small file). */
export interface EntryFacts {
  type: 'socket' | 'file' | 'other';
  /** Its owner (null on Windows, where Node reports none). */
  uid: number | null;
  size: number;
  /** The file's text, when it is a file no larger than MAX_DESCRIPTOR_BYTES. */
  text: string | null;
}

export type EntryVerdict = { address: string; descriptor: string | null } | { ignore: string };

const descriptorSchema = z.object({ v: z.literal(1), pipe: z.string().max(256), pid: z.number().int().positive() }).strict();

/**
 * What a run-folder entry named `name` announces, from what the bridge saw of it: the address to
 * connect to, or why it is ignored (logged; nothing is connected to). `uid`: this user (null: not
 * checked).
 */
export function resolveEntry(channel: HostChannel, name: string, facts: EntryFacts | null, uid: number | null): EntryVerdict {
  const path = pathFor(channel.platform).join(channel.runDir, name);
  if (facts === null) return { ignore: 'gone' };
  if (channel.kind === 'socket') {
    if (facts.type !== 'socket' || (uid !== null && facts.uid !== uid)) return { ignore: 'not a socket of this user' };
    return { address: path, descriptor: null };
  }
  const pid = PIPE_ENTRY.exec(name)?.[1];
  if (pid === undefined) return { ignore: 'not a host descriptor' };
  if (facts.type !== 'file' || (uid !== null && facts.uid !== uid)) return { ignore: 'not a file of this user' };
  if (facts.size > MAX_DESCRIPTOR_BYTES || facts.text === null) return { ignore: 'too large for a host descriptor' };
  let parsed: z.infer<typeof descriptorSchema>;
  try {
    const result = descriptorSchema.safeParse(JSON.parse(facts.text));
    if (!result.success) return { ignore: 'not a host descriptor' };
    parsed = result.data;
  } catch {
    return { ignore: 'not a host descriptor (not JSON)' };
  }
  if (String(parsed.pid) !== pid) return { ignore: 'a descriptor for another pid' };
  const expected = new RegExp(`^${escapeRegExp(channel.pipePrefix)}${pid}-[0-9a-f]{32}$`);
  if (!expected.test(parsed.pipe)) return { ignore: `names a pipe that is not this user's Tether host (${JSON.stringify(parsed.pipe.slice(0, 80))})` };
  return { address: parsed.pipe, descriptor: facts.text };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a failed connect means the host behind an entry is gone (and the entry may go). */
export function isGoneError(channel: HostChannel, code: string | undefined): boolean {
  // A published socket was listening: refusing means its host died. A pipe vanishes with its host.
  return channel.kind === 'socket' ? code === 'ECONNREFUSED' : code === 'ENOENT';
}

// ---- The edges: what the host and the bridge do with the decisions above. ----

/** Looks at a run-folder entry for resolveEntry (null: gone). */
export function lookAt(path: string): EntryFacts | null {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return null;
  }
  const type = stats.isSocket() ? 'socket' : stats.isFile() ? 'file' : 'other';
  let text: string | null = null;
  if (type === 'file' && stats.size <= MAX_DESCRIPTOR_BYTES) {
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  }
  return { type, uid: process.platform === 'win32' ? null : stats.uid, size: stats.size, text };
}

/** Removes a stale entry — only if it is still what was seen (a new host may have taken the name). */
export function removeStale(channel: HostChannel, path: string, seen: string | null): void {
  try {
    const now = lookAt(path);
    if (!now) return;
    if (channel.kind === 'socket' ? now.type === 'socket' : now.text === seen) unlinkSync(path);
  } catch {
    // already removed
  }
}

/**
 * Listens on the channel and publishes the entry once listening (a bridge never finds a host that
 * is not listening yet, and a socket is 0600 from its first moment). Resolves with the
 * publication, or null (logged) when the run folder cannot be used.
 */
export function listenAndPublish(channel: HostChannel, server: Server, pid: number, log: (line: string) => void): Promise<Publication | null> {
  try {
    ensurePrivateDir(channel.runDir, log);
  } catch (error) {
    log(`cannot publish a socket: ${(error as Error).message}`);
    return Promise.resolve(null);
  }
  const publication = publicationOf(channel, pid, randomBytes(16).toString('hex'));
  if (channel.kind === 'socket') {
    try {
      unlinkSync(publication.aside);
    } catch {
      // not there
    }
  }
  return new Promise((resolve) => {
    const mask = channel.kind === 'socket' ? process.umask(0o177) : null;
    const failed = (error: Error) => {
      if (mask !== null) process.umask(mask);
      log(`cannot listen on ${publication.listen}: ${error.message}`);
      resolve(null);
    };
    server.once('error', failed);
    server.listen(publication.listen, () => {
      server.off('error', failed);
      if (mask !== null) process.umask(mask);
      try {
        if (publication.descriptor === null) chmodSync(publication.aside, 0o600);
        else writeFileSync(publication.aside, publication.descriptor, { mode: 0o600, flag: 'wx' });
        renameSync(publication.aside, publication.entry);
      } catch (error) {
        log(`cannot publish ${publication.entry}: ${(error as Error).message}`);
        resolve(null);
        return;
      }
      resolve(publication);
    });
  });
}

/** Takes the entry away (the host is stopping). A pipe itself goes with its server. */
export function unpublish(publication: Publication): void {
  try {
    unlinkSync(publication.entry);
  } catch {
    // already gone
  }
}
