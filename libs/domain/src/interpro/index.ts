export * from './interpro2go';
