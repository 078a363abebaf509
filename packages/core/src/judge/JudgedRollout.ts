import { Context } from "effect"

/**
 * The rollout a grader is grading, when it is one: the judge's calls are recorded under its id, seed and attempt,
 * so they count toward that rollout (judge tokens and cost per rollout). Provided by whoever runs the graders;
 * without it the calls are the run's (seed −1).
 */
export class JudgedRollout extends Context.Tag("@proctor/core/JudgedRollout")<
  JudgedRollout,
  { readonly rolloutId: string; readonly seed: number; readonly attempt: number }
>() {}
