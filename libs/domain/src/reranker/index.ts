export * from './lightgbm-types';
export * from './lightgbm-objective';
export * from './lightgbm-model-parser';
export * from './lightgbm-decision';
export * from './lightgbm-predict';
export * from './lightgbm-importance';
export * from './feature-schema-sha';
