/** Thrown by `createTaskApp` when the definition cannot be served safely (no key and no `auth: "none"`). */
export class TaskAppSetupError extends Error {
  override readonly name = "TaskAppSetupError"
}
