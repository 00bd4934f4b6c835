export * from './text-source';
export * from './http-json';
