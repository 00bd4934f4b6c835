// Use cases: what the service does, written once over the repositories' interfaces and the domain,
// for every app that does it (the workers, the gateway, the benchmarks).
export * from './evaluation/evaluate-prediction-set';
export * from './evaluation/scored-predictions';
export * from './rerankers/reranker-booster';
export * from './rerankers/apply-reranker';
export * from './rerankers/bind-rerankers';
