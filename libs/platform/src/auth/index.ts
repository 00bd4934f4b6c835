export * from './jwt-codec';
export * from './password-hasher';
export * from './mailer';
