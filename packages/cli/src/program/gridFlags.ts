/**
 * Repeated `--model` and `--prompt`: one of each sets the key as before; several make a grid run, the matrix of
 * every model with every prompt (`[[eval.variants]]` with lists, which the flags then replace).
 */
export const gridFlagSettings = (
  models: ReadonlyArray<string> = [],
  prompts: ReadonlyArray<string> = [],
): Record<string, unknown> => {
  const grid = models.length > 1 || prompts.length > 1
  return {
    ...(models.length === 1 ? { model: models[0] } : {}),
    ...(prompts.length === 1 ? { prompt: prompts[0] } : {}),
    ...(grid
      ? {
          variants: [
            { ...(models.length > 1 ? { model: models } : {}), ...(prompts.length > 1 ? { prompt: prompts } : {}) },
          ],
        }
      : {}),
  }
}
