// Use cases: what the service does, written once over the repositories' interfaces and the domain,
// for every app that does it (the evaluation worker, the benchmarks).
export * from './evaluation/evaluate-prediction-set';
export * from './evaluation/scored-predictions';
