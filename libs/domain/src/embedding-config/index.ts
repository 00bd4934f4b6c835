export * from './uuid-v5';
export * from './embedding-config';
