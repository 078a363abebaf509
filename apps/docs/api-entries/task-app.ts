/**
 * The task-app SDK: `createTaskApp` serves your rollout function on synth-ai's task-app contract (fastify);
 * `chatCompletion` and `sessionTrace` call the model and report its calls.
 * @module @proctor/task-app
 */
export * from "@proctor/task-app"
