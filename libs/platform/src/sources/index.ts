export * from './text-source';
export * from './http-json';
export * from './source-error';
export * from './source-policy';
export * from './address-class';
export * from './line-reader';
export * from './guarded-http';
