export * from './bands';
export * from './benchmark-config';
export * from './matrix';
