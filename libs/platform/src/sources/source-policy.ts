import { lookup } from 'node:dns/promises';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from '../config/app-config';
import { classifyIpLiteral } from './address-class';
import { SourceError } from './source-error';
import type { TransferLimits } from './transfer-limits';

/** The part of the artifact store a source reader needs: URIs it issued are read through it. */
export interface SourceStore {
  keyOf(uri: string): string | null;
  open(key: string): Promise<Readable>;
}

/**
 * What the server may read, how much and how slowly (docs/security.md, "Sources: what the server
 * reads"); the transfer limits hold http(s) sources.
 */
export interface SourcePolicy extends TransferLimits {
  /** Directories (or single files) under which file:// URLs and paths may be read. */
  readonly allowedRoots: readonly string[];
  /** Host names (canonical, lower case) http(s) sources may reach whatever they resolve to. */
  readonly allowedHosts: ReadonlySet<string>;
  /** Relative paths resolve against this folder (the working directory when null). */
  readonly baseDir: string | null;
  readonly maxLineBytes: number;
  readonly maxBytes: number;
  readonly store: SourceStore | null;
}

/** A source the policy let through, and how to reach it. */
export type AdmittedSource =
  | { kind: 'artifact'; key: string; store: SourceStore }
  | { kind: 'file'; path: string }
  /** `checkDns`: the host is neither listed nor an IP literal, so every address it resolves to is checked. */
  | { kind: 'http'; url: URL; checkDns: boolean };

const ROOTS_SETTING = 'SVC_SOURCE_ALLOWED_ROOTS';
const HOSTS_SETTING = 'SVC_SOURCE_ALLOWED_HOSTS';
const UPLOAD_HINT = 'or upload the file with POST /v1/sources and use the uri it answers';

/** A host name as the URL parser writes it (numeric IPv4 forms become dotted quads, IPv6 loses brackets). */
export function canonicalHost(host: string): string {
  let name = host.trim().toLowerCase();
  try {
    name = new URL(`http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}/`).hostname;
  } catch {
    // Not a valid host: kept as written, it will match nothing.
  }
  return name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
}

/** The process's source policy: the security settings, plus the UniProt and QuickGO hosts it calls. */
export function sourcePolicyOf(config: AppConfig, store: SourceStore | null): SourcePolicy {
  const hosts = new Set(config.security.sourceAllowedHosts.map(canonicalHost));
  for (const base of [config.uniprotBaseUrl, config.quickgoBaseUrl]) {
    try {
      hosts.add(canonicalHost(new URL(base).hostname));
    } catch {
      // An invalid base URL fails where it is used.
    }
  }
  return Object.freeze({
    allowedRoots: Object.freeze([...config.security.sourceAllowedRoots]),
    allowedHosts: hosts,
    baseDir: config.dataDir,
    maxLineBytes: config.security.sourceMaxLineBytes,
    maxBytes: config.security.sourceMaxBytes,
    deadlineMs: config.security.sourceDeadlineSeconds * 1000,
    minBytesPerSecond: config.security.sourceMinBytesPerSecond,
    rateWindowMs: config.security.sourceRateWindowSeconds * 1000,
    store,
  });
}

/** The policy with one more allowed file or folder: for paths an operator configured, not a request. */
export function withAllowedRoot(policy: SourcePolicy, path: string): SourcePolicy {
  return Object.freeze({ ...policy, allowedRoots: Object.freeze([...policy.allowedRoots, resolve(path)]) });
}

function isUnder(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

function refusedFile(source: string, policy: SourcePolicy): SourceError {
  const why =
    policy.allowedRoots.length === 0
      ? `reading files is turned off (${ROOTS_SETTING} is empty)`
      : `the path is outside the folders of ${ROOTS_SETTING}`;
  return new SourceError(
    'source_not_allowed',
    `${source}: ${why}; add a folder that holds it to ${ROOTS_SETTING}, ${UPLOAD_HINT}`,
  );
}

function refusedHost(url: URL, what: string): SourceError {
  return new SourceError(
    'source_not_allowed',
    `${url.protocol}//${url.host}: ${what}; http(s) sources may reach only public addresses unless their host is listed in ${HOSTS_SETTING}`,
  );
}

/**
 * Decides whether `source` may be read, before anything touches it: a URI the artifact store
 * issued always may; a file:// URL or path only under an allowed root (checked on the path as
 * written first, so a refused path is never looked at, then again after symlinks); an http(s) URL
 * only to a listed host or a public IP literal (other host names are checked when they resolve,
 * see `guardedLookup`). `inspectFiles: false` skips the second file check, for a process that
 * does not see the readers' file system (the gateway).
 */
export async function admitSource(
  source: string,
  policy: SourcePolicy,
  options: { inspectFiles?: boolean } = {},
): Promise<AdmittedSource> {
  const key = policy.store?.keyOf(source) ?? null;
  if (key !== null && policy.store !== null) return { kind: 'artifact', key, store: policy.store };
  if (/^https?:\/\//i.test(source)) return { kind: 'http', ...admitHttp(source, policy) };
  let path: string;
  if (/^file:/i.test(source)) {
    try {
      path = fileURLToPath(source);
    } catch {
      throw new SourceError('unsupported_source', `${source} is not a local file URL`);
    }
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    throw new SourceError(
      'unsupported_source',
      /^s3:\/\//i.test(source)
        ? `${source} is not in the configured artifact store`
        : `unsupported URL scheme in ${source}`,
    );
  } else {
    path = resolve(policy.baseDir ?? process.cwd(), source);
  }
  if (!policy.allowedRoots.some((root) => isUnder(path, root))) throw refusedFile(source, policy);
  if (options.inspectFiles === false) return { kind: 'file', path };
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw new SourceError('source_not_found', `no such file: ${source}`);
  }
  const realRoots = await Promise.all(policy.allowedRoots.map((root) => realpath(root).catch(() => root)));
  if (!realRoots.some((root) => isUnder(real, root))) throw refusedFile(source, policy);
  const info = await stat(real);
  if (!info.isFile()) throw new SourceError('source_not_found', `not a file: ${source}`);
  return { kind: 'file', path: real };
}

/** The http(s) half of `admitSource`, without I/O. */
export function admitHttp(source: string, policy: SourcePolicy): { url: URL; checkDns: boolean } {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new SourceError('unsupported_source', `${source} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SourceError('unsupported_source', `unsupported URL scheme in ${source}`);
  const host = canonicalHost(url.hostname);
  if (policy.allowedHosts.has(host)) return { url, checkDns: false };
  const literal = classifyIpLiteral(host);
  if (literal === null) return { url, checkDns: true };
  if (literal !== 'public') throw refusedHost(url, `a ${literal.replace('_', '-')} address`);
  return { url, checkDns: false };
}

/** Refuses when any address the host resolves to is not public (an answer that mixes both included). */
export function checkResolvedAddresses(url: URL, addresses: readonly { address: string }[]): void {
  if (addresses.length === 0) throw new SourceError('source_unreachable', `${url.host} has no address`);
  for (const { address } of addresses) {
    const kind = classifyIpLiteral(address) ?? 'reserved';
    if (kind !== 'public') throw refusedHost(url, `the host resolves to a ${kind.replace('_', '-')} address`);
  }
}

/**
 * The check made where a source is named (the gateway, when a load is queued or a reference
 * stored): the policy, plus the host's DNS answer. A host that does not resolve now is let
 * through: the reader reports it as unreachable, and checks its answer again when it connects.
 */
export async function checkSource(source: string, policy: SourcePolicy): Promise<void> {
  const admitted = await admitSource(source, policy, { inspectFiles: false });
  if (admitted.kind !== 'http' || !admitted.checkDns) return;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(canonicalHost(admitted.url.hostname), { all: true, verbatim: true });
  } catch {
    return;
  }
  checkResolvedAddresses(admitted.url, addresses);
}
