export * from './submission';
export * from './daily-quota';
