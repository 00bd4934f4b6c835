import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ApiError, get } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | Error | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * GETs `path` (null skips), again when it changes, and every `pollMs` while `keepPolling` says so.
 * Polls never overlap: the next one is scheduled when the previous answer has arrived.
 */
export function useApi<T>(
  path: string | null,
  options: { pollMs?: number; keepPolling?: (data: T) => boolean } = {},
): Loaded<T> {
  const [state, setState] = useState<{ path: string | null; data?: T; error?: ApiError | Error }>({
    path: null,
  });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const keepPolling = useRef(options.keepPolling);
  keepPolling.current = options.keepPolling;
  const { pollMs } = options;

  useEffect(() => {
    if (path === null) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async (): Promise<void> => {
      try {
        const data = await get<T>(path);
        if (cancelled) return;
        setState({ path, data });
        if (pollMs !== undefined && keepPolling.current?.(data))
          timer = setTimeout(() => void load(), pollMs);
      } catch (error) {
        if (cancelled) return;
        setState((previous) => ({
          path,
          data: previous.path === path ? previous.data : undefined,
          error: error as Error,
        }));
      }
    };
    void load();
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [path, tick, pollMs]);

  const current = state.path === path;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: path !== null && (!current || (state.data === undefined && state.error === undefined)),
    reload,
  };
}

export interface LoadedList<T> extends Loaded<T[]> {
  items: T[];
  /** The API answered 401 or 403: the visitor may not read this list, which shows empty. */
  restricted: boolean;
  /** The API has no such list (404): shown empty as well. */
  unavailable: boolean;
  /** The response body as it came (for totals of paginated lists). */
  body: unknown;
}

/** A list read where an answer of 401/403 (or a missing endpoint) is an empty list, never an error. */
export function useList<T>(
  path: string | null,
  options: { select?: (body: unknown) => T[]; pollMs?: number; keepPolling?: (items: T[]) => boolean } = {},
): LoadedList<T> {
  const { select, pollMs, keepPolling } = options;
  const toItems = (raw: unknown): T[] => (select ? select(raw) : Array.isArray(raw) ? (raw as T[]) : []);
  const loaded = useApi<unknown>(path, {
    pollMs,
    keepPolling: keepPolling ? (raw) => keepPolling(toItems(raw)) : undefined,
  });
  const status = loaded.error instanceof ApiError ? loaded.error.status : undefined;
  const restricted = status === 401 || status === 403;
  const unavailable = status === 404;
  const raw = loaded.data;
  const items = raw === undefined ? [] : toItems(raw);
  return {
    ...loaded,
    data: raw === undefined ? undefined : items,
    error: restricted || unavailable ? undefined : loaded.error,
    items,
    restricted,
    unavailable,
    body: raw,
  };
}

function subscribeHash(callback: () => void): () => void {
  window.addEventListener('hashchange', callback);
  return () => window.removeEventListener('hashchange', callback);
}

export interface Route {
  path: string;
  segments: string[];
  query: URLSearchParams;
}

/** Hash routing (`/#/jobs/<id>?x=y`): the browser never asks the server for a page path. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribeHash, () => window.location.hash);
  const raw = hash.replace(/^#/, '') || '/';
  const [pathPart = '/', queryPart = ''] = raw.split('?');
  const segments = pathPart.split('/').filter(Boolean).map(decodeURIComponent);
  return { path: pathPart, segments, query: new URLSearchParams(queryPart) };
}

export function navigate(to: string): void {
  window.location.hash = to.startsWith('#') ? to : `#${to}`;
}

/** Replaces the query part of the current route (filters), keeping the path. */
export function setQuery(route: Route, changes: Record<string, string | undefined>): void {
  const query = new URLSearchParams(route.query);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') query.delete(key);
    else query.set(key, value);
  }
  const text = query.toString();
  navigate(`${route.path}${text ? `?${text}` : ''}`);
}

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Protein function dashboards`;
  }, [title]);
}
