import type { GoAspect } from './obo-types';

const ASPECT_BY_NAMESPACE: Readonly<Record<string, GoAspect>> = {
  molecular_function: 'F',
  biological_process: 'P',
  cellular_component: 'C',
};

/**
 * The aspect of a GO namespace. Only the three GO namespace names are recognised: the one-letter forms
 * belong to GAF files, and accepting them here would let a malformed OBO namespace pass unnoticed.
 */
export function aspectOfNamespace(ns: string | null): GoAspect | null {
  if (ns === null) return null;
  return Object.hasOwn(ASPECT_BY_NAMESPACE, ns) ? (ASPECT_BY_NAMESPACE[ns] ?? null) : null;
}
