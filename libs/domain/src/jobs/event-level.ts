/** The level of a job event (`GET /jobs/{id}/events`): one spelling everywhere, `warning` not `warn`. */
export type JobEventLevel = 'debug' | 'info' | 'warning' | 'error';
