import { classifyIpLiteral } from './address-class';
import { canonicalHost } from './source-policy';

/** Query parameters that may carry a secret (tokens, keys, signatures of pre-signed URLs). */
const SECRET_PARAMETER =
  /token|secret|passw|pwd|api[-_]?key|^key$|access[-_]?key|signature|^sig$|auth|credential|session|cookie|^x-amz-|^x-goog-/i;

/** Host names that are no public host: no dot, or a suffix kept for private networks. */
const PRIVATE_NAME = /^[^.]*$|\.(localhost|local|internal|intranet|lan|corp|home\.arpa)$/i;

/** The last segment of a path or URL path, decoded; `source` when there is none. */
function fileNameOf(path: string): string {
  const last =
    path
      .split(/[\\/]/)
      .filter((part) => part !== '')
      .pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // Not percent-encoded after all: kept as written.
  }
  return name === '' ? 'source' : name;
}

/** Whether an http(s) URL points at a public host, rather than the private network. */
function isPublicHost(url: URL, privateHosts: ReadonlySet<string>): boolean {
  const host = canonicalHost(url.hostname);
  if (privateHosts.has(host)) return false;
  const literal = classifyIpLiteral(host);
  if (literal !== null) return literal === 'public';
  return !PRIVATE_NAME.test(host);
}

/**
 * How a stored source (a snapshot's `obo_url`, a set's `source_url`, a re-ranker's `artifact_uri`...)
 * is named to callers below operator (docs/security.md, "Sources: what the server reads"): an
 * http(s) URL of a public host as it is, less its credentials, fragment and secret-looking query
 * parameters; anything else (a path or file:// URL on the server, an artifact-store or s3:// URI,
 * a URL of a private or `privateHosts` host) by its file name only, so that no server path, store
 * layout or internal address is shown.
 */
export function publicSourceName(
  source: string,
  options: { privateHosts?: ReadonlySet<string> } = {},
): string {
  const privateHosts = options.privateHosts ?? new Set<string>();
  let url: URL | null = null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(source)) {
    try {
      url = new URL(source);
    } catch {
      url = null;
    }
  }
  if (url === null) return fileNameOf(source.replace(/[?#].*$/s, ''));
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isPublicHost(url, privateHosts))
    return fileNameOf(url.pathname);
  const shown = new URL(`${url.protocol}//${url.host}${url.pathname}`);
  for (const [name, value] of url.searchParams)
    if (!SECRET_PARAMETER.test(name)) shown.searchParams.append(name, value);
  return shown.href;
}
