export * from './submission';
export * from './daily-quota';
export * from './submit-job';
