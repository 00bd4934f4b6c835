export * from './scoring';
export * from './classification-metrics';
