export * from './problem-mapping';
export * from './problem.filter';
export * from './validation';
export * from './roles';
export * from './input-guards';
export * from './json-limits';
export * from './address-group';
