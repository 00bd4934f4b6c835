export * from './gaf-columns';
export * from './gaf-fields';
export * from './gaf-format';
export * from './gaf-line';
export * from './gaf-qualifiers';
export * from './gaf-reader';
export * from './gaf-record';
export * from './gaf-prediction';
